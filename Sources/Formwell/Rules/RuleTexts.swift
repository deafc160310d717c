/// The UTF-8 of a rule's texts (its failure message, limit message, hint, code and parameters) in
/// one array, kept beside the strings, which stay what everything else reads. A state read borrows
/// these in place: reading a string's bytes through the pointer the read reaches the rule by makes
/// a copy of the string, an atomic retain and release on a string that every form using the same
/// catalogue shares (two threads on two forms then take its cache line from each other).
struct RuleTexts: Sendable {
    enum Part: Int { case failure, limitFailure, hint, code, params }

    private var bytes: [UInt8]
    /// Where each part ends in `bytes`, in `Part` order.
    private let ends: (Int, Int, Int, Int, Int)

    init(failure: String, limitFailure: String, hint: String, code: String, params: String) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(failure.utf8.count + limitFailure.utf8.count + hint.utf8.count + code.utf8.count + params.utf8.count)
        var ends = (0, 0, 0, 0, 0)
        bytes += failure.utf8
        ends.0 = bytes.count
        bytes += limitFailure.utf8
        ends.1 = bytes.count
        bytes += hint.utf8
        ends.2 = bytes.count
        bytes += code.utf8
        ends.3 = bytes.count
        bytes += params.utf8
        ends.4 = bytes.count
        self.bytes = bytes
        self.ends = ends
    }

    /// The bounds of `part` in `bytes`.
    @inline(__always)
    private func bounds(_ part: Part) -> (start: Int, end: Int) {
        switch part {
        case .failure: return (0, ends.0)
        case .limitFailure: return (ends.0, ends.1)
        case .hint: return (ends.1, ends.2)
        case .code: return (ends.2, ends.3)
        case .params: return (ends.3, ends.4)
        }
    }

    /// `body` over the UTF-8 of `part`, in place. Mutating only so that texts reached through a
    /// pointer are borrowed, not copied (nothing is changed).
    @inline(__always)
    mutating func with<R>(_ part: Part, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        let range = bounds(part)
        return bytes.withUnsafeMutableBufferPointer { all in body(RuleTexts.slice(all, range)) }
    }

    /// `body` over the UTF-8 of the failure message, the hint, the code and the parameters, in one
    /// borrow: everything a state read of this rule's failure copies.
    @inline(__always)
    mutating func withFailureParts<R>(
        _ body: (_ failure: UnsafeBufferPointer<UInt8>, _ hint: UnsafeBufferPointer<UInt8>,
                 _ code: UnsafeBufferPointer<UInt8>, _ params: UnsafeBufferPointer<UInt8>) -> R
    ) -> R {
        let (failure, hint, code, params) = (bounds(.failure), bounds(.hint), bounds(.code), bounds(.params))
        return bytes.withUnsafeMutableBufferPointer { all in
            body(RuleTexts.slice(all, failure), RuleTexts.slice(all, hint), RuleTexts.slice(all, code),
                 RuleTexts.slice(all, params))
        }
    }

    /// `body` over the UTF-8 of the code and of the parameters, in one borrow.
    @inline(__always)
    mutating func withCodeAndParams(_ body: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>) -> Void) {
        let (code, params) = (bounds(.code), bounds(.params))
        bytes.withUnsafeMutableBufferPointer { all in body(RuleTexts.slice(all, code), RuleTexts.slice(all, params)) }
    }

    /// The part of `all` within `range`, clamped to it.
    @inline(__always)
    private static func slice(_ all: UnsafeMutableBufferPointer<UInt8>, _ range: (start: Int, end: Int)) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: all[min(range.start, all.count)..<min(range.end, all.count)])
    }
}
