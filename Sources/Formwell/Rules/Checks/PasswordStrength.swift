/// Seed 03's `PasswordStrengthValidator` score, exactly: one point each for at least 8 characters
/// (`String.count`, grapheme clusters), an ASCII uppercase letter (`[A-Z]`), an ASCII digit
/// (`[0-9]`) and a symbol (`[^A-Za-z0-9]`: any character that is not an ASCII letter or digit, so a
/// space or `é` counts as a symbol). Lowercase letters score nothing. The score is 0 to 4.
enum PasswordStrength {
    static func score(_ value: Subject) -> Int {
        var upper = false, digit = false, symbol = false
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): upper = true
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = true
            case UInt8(ascii: "a")...UInt8(ascii: "z"): continue
            default: symbol = true  // any other ASCII byte, or any byte of a non-ASCII character
            }
        }
        return (value.characterCount >= 8 ? 1 : 0) + (upper ? 1 : 0) + (digit ? 1 : 0) + (symbol ? 1 : 0)
    }
}
