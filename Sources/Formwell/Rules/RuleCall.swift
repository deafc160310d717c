/// A rule kind with its arguments: `{"rule": "min_length", "length": 8}` as a value. Any kind of the
/// catalogue can be named generically (`RuleCall("url", ["schemes": .strings(["https"])])`); the
/// static constructors in RuleCall+Constructors.swift are shorthands.
///
/// Equality compares the kind and the arguments (a custom rule's validator by its name only).
public struct RuleCall: Equatable, Sendable {
    public let name: String
    public let arguments: [String: RuleArgument]
    /// A custom rule's validator given directly (Swift closure, C function); a spec names one instead.
    public let validator: CustomValidator?

    public init(_ name: String, _ arguments: [String: RuleArgument] = [:], validator: CustomValidator? = nil) {
        self.name = name
        self.arguments = arguments
        self.validator = validator
    }

    /// The catalogue's entry for this kind, if it has one.
    public var descriptor: RuleDescriptor? { RuleCatalog.descriptor(named: name) }

    public static func == (lhs: RuleCall, rhs: RuleCall) -> Bool {
        lhs.name == rhs.name && lhs.arguments == rhs.arguments && lhs.validator?.name == rhs.validator?.name
    }
}

/// A field's rules, named once and used by several fields (seed 03's `CombinedValidator`): the
/// spec's top-level `"rule_sets"`, referred to by `{"rule": "set", "name": …}`.
public struct RuleSet: Equatable, Sendable {
    public let name: String
    public let rules: [RuleSpec]

    public init(name: String, rules: [RuleSpec]) {
        self.name = name
        self.rules = rules
    }
}
