import Testing
@testable import Formwell

/// Argument errors: each refused call throws the exact FormError and leaves the form as it was.
@Suite struct FormErrorTests {
    @Test func emptyID() throws {
        var form = Form()
        #expect(throws: FormError.invalidArgument("a field id must not be empty")) {
            try form.addField("")
        }
        #expect(form.fieldIDs.isEmpty)
    }

    @Test func duplicateID() throws {
        var form = Form()
        try form.addField("email", initialValue: "first")
        #expect(throws: FormError.duplicateField("email")) {
            try form.addField("email", initialValue: "second")
        }
        #expect(form.fieldIDs == ["email"])
        #expect(try form.value(of: "email") == "first")
    }

    @Test("negative lengths", arguments: [Rule.minLength(-1), Rule.maxLength(-1)])
    func negativeLength(rule: Rule) throws {
        var form = Form()
        #expect(throws: FormError.invalidArgument("length -1 for field 'f' is negative")) {
            try form.addField("f", rules: [rule])
        }
        #expect(form.fieldIDs.isEmpty)
    }

    @Test("zero lengths are allowed")
    func zeroLength() throws {
        var form = Form()
        try form.addField("f", rules: [.minLength(0), .maxLength(0)])
        #expect(form.fieldIDs == ["f"])
    }

    @Test("min above max, in either order")
    func minAboveMax() throws {
        var form = Form()
        let error = FormError.invalidArgument("min_length 5 is greater than max_length 3 for field 'f'")
        #expect(throws: error) { try form.addField("f", rules: [.minLength(5), .maxLength(3)]) }
        #expect(throws: error) { try form.addField("f", rules: [.maxLength(3), .minLength(5)]) }
        #expect(form.fieldIDs.isEmpty)
        // min == max is fine
        try form.addField("f", rules: [.minLength(3), .maxLength(3)])
        #expect(form.fieldIDs == ["f"])
    }

    @Test("min above max through addRule leaves the field as it was")
    func minAboveMaxAddRule() throws {
        var form = Form()
        try form.addField("f", rules: [.maxLength(3)])
        try form.setValue("abcd", for: "f")
        let before = try Snapshot(form)
        #expect(throws: FormError.invalidArgument("min_length 5 is greater than max_length 3 for field 'f'")) {
            try form.addRule(.minLength(5), to: "f")
        }
        #expect(try Snapshot(form) == before)
    }

    @Test func matchesItself() throws {
        var form = Form()
        #expect(throws: FormError.invalidArgument("field 'pw' cannot be required to match itself")) {
            try form.addField("pw", rules: [.matches("pw")])
        }
        try form.addField("pw")
        #expect(throws: FormError.invalidArgument("field 'pw' cannot be required to match itself")) {
            try form.addRule(.matches("pw"), to: "pw")
        }
    }

    @Test func matchesUnknownField() throws {
        var form = Form()
        try form.addField("a")
        #expect(throws: FormError.unknownField("nope")) {
            try form.addField("b", rules: [.matches("nope")])
        }
        #expect(throws: FormError.unknownField("nope")) {
            try form.addRule(.matches("nope"), to: "a")
        }
        #expect(form.fieldIDs == ["a"])
    }

    @Test("every operation naming an unknown field throws unknownField")
    func unknownField() throws {
        var form = Form()
        try form.addField("a", rules: [.required()])
        let before = try Snapshot(form)
        let unknown = FormError.unknownField("zz")
        #expect(throws: unknown) { try form.focus("zz") }
        #expect(throws: unknown) { try form.blur("zz") }
        #expect(throws: unknown) { try form.setValue("x", for: "zz") }
        #expect(throws: unknown) { try form.touch("zz") }
        #expect(throws: unknown) { try form.addRule(.required(), to: "zz") }
        #expect(throws: unknown) { try form.state(of: "zz") }
        #expect(throws: unknown) { try form.value(of: "zz") }
        #expect(try Snapshot(form) == before)
    }

    @Test("ids are case-sensitive")
    func caseSensitiveIDs() throws {
        var form = Form()
        try form.addField("Email")
        try form.addField("email")
        #expect(form.fieldIDs == ["Email", "email"])
        #expect(throws: FormError.unknownField("EMAIL")) { try form.value(of: "EMAIL") }
    }

    @Test("error descriptions")
    func descriptions() {
        #expect(FormError.unknownField("x").description == "no field with id 'x'")
        #expect(FormError.duplicateField("x").description == "a field with id 'x' already exists")
        #expect(FormError.invalidArgument("bad").description == "bad")
        #expect(FormError.invalidPattern(PatternError(message: "m", offset: 2)).description
                == "m at offset 2")
        #expect(FormError.callbackFailed("cb").description == "cb")
        #expect(FormError.internalError("ie").description == "internal error: ie")
    }
}

@Suite struct FormQueryTests {
    @Test("fieldIDs keep registration order; values map every id; labels are reported")
    func registrationOrder() throws {
        var form = Form()
        try form.addField("z", label: "Zed", initialValue: "1")
        try form.addField("a")
        try form.addField("m", initialValue: "3")
        #expect(form.fieldIDs == ["z", "a", "m"])
        #expect(form.values == ["z": "1", "a": "", "m": "3"])
        let z = try form.state(of: "z")
        #expect(z.id == "z")
        #expect(z.label == "Zed")
        #expect(z.value == "1")
        #expect(try form.state(of: "a").label == nil)
    }

    @Test("an empty form is valid and has no invalid field")
    func emptyForm() throws {
        var form = Form()
        #expect(form.isValid)
        #expect(form.firstInvalidFieldID == nil)
        #expect(form.values.isEmpty)
        #expect(try form.validate())
    }

    @Test("isValid and firstInvalidFieldID judge strictly, touched or not, in registration order")
    func strictQueries() throws {
        var form = Form()
        try form.addField("a")                                     // optional, empty: passes
        try form.addField("b", rules: [.email()])                  // optional, empty: passes
        try form.addField("c", rules: [.required()])               // required, empty: fails
        try form.addField("d", initialValue: "x", rules: [.minLength(2)])  // fails
        #expect(form.isValid == false)
        #expect(form.firstInvalidFieldID == "c")
        try form.focus("c")
        #expect(form.firstInvalidFieldID == "c")   // the lenient focused state does not hide it
        try form.setValue("y", for: "c")
        #expect(form.firstInvalidFieldID == "d")
        try form.setValue("xy", for: "d")
        #expect(form.isValid)
        #expect(form.firstInvalidFieldID == nil)
        // Nothing was touched along the way.
        #expect(try form.fieldIDs.allSatisfy { try form.state(of: $0).touched == false })
    }
}
