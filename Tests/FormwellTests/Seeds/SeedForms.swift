import Foundation
import Testing
@testable import Formwell

/// The three example forms of seed 03, registered with Formwell rules.
enum SeedForms {
    static let weakPassword = "Password too weak — add uppercase, numbers, or symbols"
    static let badURL = "Enter a valid URL including https://"

    /// Seed 03's PasswordStrengthValidator: one point each for 8+ characters, an uppercase letter,
    /// a digit, a symbol; fewer than 3 points is too weak.
    static let passwordStrength = Rule.custom { value in
        var score = 0
        if value.count >= 8 { score += 1 }
        if value.range(of: "[A-Z]", options: .regularExpression) != nil { score += 1 }
        if value.range(of: "[0-9]", options: .regularExpression) != nil { score += 1 }
        if value.range(of: "[^A-Za-z0-9]", options: .regularExpression) != nil { score += 1 }
        return score < 3 ? .invalid(weakPassword) : .valid
    }

    /// Seed 03's URLValidator: a URL with a scheme and a host.
    static let url = Rule.custom { value in
        guard let url = URL(string: value), url.scheme != nil, url.host != nil else {
            return .invalid(badURL)
        }
        return .valid
    }

    /// Seed 03 example 1.
    static func login() throws -> Form {
        var form = Form()
        try form.addField("email", rules: [.required(), .email()])
        try form.addField("password", rules: [.required(), .minLength(8)])
        return form
    }

    /// Seed 03 example 2.
    static func registration() throws -> Form {
        var form = Form()
        try form.addField("name", label: "Display name", rules: [.required(message: "Name is required")])
        try form.addField("email", label: "Email address", rules: [.required(), .email()])
        try form.addField("username", label: "Username", rules: [
            .required(),
            .minLength(3, message: "At least 3 characters"),
            .maxLength(20, message: "20 characters maximum"),
            .regex("^[a-z0-9_]+$", message: "Lowercase letters, numbers, and underscores only"),
        ])
        try form.addField("password", label: "Password", rules: [.required(), .minLength(8), passwordStrength])
        try form.addField("confirm", label: "Confirm password", rules: [
            .required(message: "Please confirm your password"),
            .matches("password", message: "Passwords don't match"),
        ])
        return form
    }

    /// Seed 03 example 3, with the user's current profile as initial values.
    static func profile(
        displayName: String = "Ada Lovelace", bio: String = "", website: String = "https://ada.dev",
        location: String = "London"
    ) throws -> Form {
        var form = Form()
        try form.addField("displayName", initialValue: displayName, rules: [
            .required(message: "Display name is required"),
            .maxLength(50, message: "50 characters maximum"),
        ])
        try form.addField("bio", initialValue: bio, rules: [
            .maxLength(280, message: "Bio must be 280 characters or fewer"),
        ])
        try form.addField("website", initialValue: website, rules: [url])
        try form.addField("location", initialValue: location, rules: [
            .maxLength(100, message: "100 characters maximum"),
        ])
        return form
    }
}

/// The seed validators themselves, so the form tests below rest on faithful reproductions.
@Suite struct SeedValidatorTests {
    @Test(arguments: [
        ("abcdefgh", false),   // length only: 1 point
        ("Abcdefgh", false),   // length + uppercase: 2
        ("abcdefg1", false),   // length + digit: 2
        ("Abcdefg1", true),    // length + uppercase + digit: 3
        ("abcdefg!", false),   // length + symbol: 2
        ("abcdef1!", true),    // length + digit + symbol: 3
        ("Ab1!", true),        // uppercase + digit + symbol, short: 3
        ("Ab1", false),        // 2
    ])
    func passwordStrengthScoring(password: String, strong: Bool) throws {
        var form = Form()
        try form.addField("p", rules: [SeedForms.passwordStrength])
        try form.setValue(password, for: "p")
        #expect(try form.state(of: "p").input
                == .inactive(strong ? .valid : .invalid(SeedForms.weakPassword)))
    }

    @Test(arguments: [
        ("https://ada.dev", true),
        ("http://example.com/path?q=1", true),
        ("https://sub.example.org:8443", true),
        ("ada.dev", false),            // no scheme
        ("www.example.com/page", false),
        ("mailto:ada@example.com", false), // scheme, no host
        ("https:ada.dev", false),      // scheme, no host
        ("not a url", false),
    ])
    func urlRule(value: String, valid: Bool) throws {
        var form = Form()
        try form.addField("w", rules: [SeedForms.url])
        try form.setValue(value, for: "w")
        #expect(try form.state(of: "w").input == .inactive(valid ? .valid : .invalid(SeedForms.badURL)))
    }
}
