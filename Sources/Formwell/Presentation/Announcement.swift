/// Seed 03's screen-reader summary after a failed submit: "2 fields need attention: Email, Password".
enum Announcement {
    static func text(naming names: [String]) -> String {
        guard !names.isEmpty else { return "" }
        let noun = names.count == 1 ? "field needs" : "fields need"
        return "\(names.count) \(noun) attention: \(names.joined(separator: ", "))"
    }
}
