/// The sizes the library refuses to grow a form or a spec past: generous for any real form, and
/// small enough that a short text (a spec whose rule sets multiply its rules) cannot make a load
/// hold a core and gigabytes of memory. Past a limit, the call that would cross it is refused with
/// a message naming the limit, and nothing stored changes. The C header has them as `fw_limit`
/// (generated from this file by scripts/gen_limits.py), the Python binding as `formwell.limits`.
public enum FormLimits {
    /// The most fields one form holds.
    public static let fieldsPerForm = 1_000_000
    /// The most synchronous rules one field holds (after its rule sets are expanded).
    public static let rulesPerField = 100_000
    /// The most rules one spec may expand to: every field's rules, each rule-set reference counted
    /// as the rules of its set. A compiled rule takes on the order of a kilobyte, so a spec at this
    /// limit builds a form of a few gigabytes at most.
    public static let rulesPerSpec = 2_000_000
}
