import Testing
@testable import Formwell

/// The text forms of uuid, ip, ipv4, ipv6, hostname and luhn, through a form's rules (the
/// conformance vector 70 covers the same rules in every runtime; these add the Swift shorthands and
/// the parameter checks).
struct TextFormatTests {
    @Test("the shorthands build rules that judge as their kinds", arguments: [
        (RuleCall.uuid(version: 4), "f47ac10b-58cc-4372-a567-0e02b2c3d479", true),
        (RuleCall.uuid(version: 4), "01890a5d-ac96-774b-bcce-b302099a8057", false),
        (RuleCall.ip(), "2001:db8::1", true),
        (RuleCall.ipv4(prefix: "required"), "192.0.2.0/24", true),
        (RuleCall.ipv4(), "192.0.2.0/24", false),
        (RuleCall.ipv6(prefix: "allowed"), "::/0", true),
        (RuleCall.hostname, "a.b-c.example", true),
        (RuleCall.hostname, "a..example", false),
        (RuleCall.luhn, "79927398713", true),
        (RuleCall.luhn, "79927398714", false),
    ])
    func shorthand(_ call: RuleCall, _ value: String, _ valid: Bool) throws {
        var form = Form()
        try form.addField("f", rules: [Rule(call)])
        try form.setValue(value, for: "f")
        let validity = try form.state(of: "f").validity
        #expect(valid ? validity == .valid : validity.message != nil)
    }

    @Test("a uuid version outside 1 to 8 and an unknown prefix choice are refused")
    func parameters() {
        var form = Form()
        #expect(throws: FormError.self) { try form.addField("u", rules: [Rule(.uuid(version: 0))]) }
        #expect(throws: FormError.self) { try form.addField("i", rules: [Rule(.ip(prefix: "sometimes"))]) }
        #expect(form.fieldCount == 0)
    }
}
