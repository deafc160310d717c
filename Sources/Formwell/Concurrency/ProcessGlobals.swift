/// The engine's lazily initialized globals, made before a fork copies the process.
///
/// Swift makes a global on its first use, under a once-flag. A child forked while another thread
/// was making one inherits the flag as "in progress" with nobody to finish it, and hangs on its
/// first use. The fork handlers call `settle()` before taking any lock: it uses every such global
/// (waiting, in the parent, for one another thread is making), so each is complete in the child.
/// The C layer also calls it when it makes its handle table, so that the engine's fork handlers
/// exist before its own and no global is first made inside a prepare handler. A global with a
/// computed initial value belongs in this list. Touching one must take no lock: the handlers may
/// already hold every `ProcessLock` when the C layer's handler calls `settle()`.
public enum ProcessGlobals {
    public static func settle() {
        ForkHandlers.install()
        _ = MessageCatalogs.english
        _ = MessageCatalogs.shipped
        _ = EmbeddedCatalogues.others
        _ = FailureCode.all
        _ = RuleCatalog.descriptor(named: "required")
        _ = RuleCatalog.descriptor(cValue: 0)
        _ = RuleCall.required
        _ = RuleCall.email
        _ = RuleCall.phone
        _ = RuleCall.htmlEmail
        _ = RuleCall.e164
        _ = CompiledRule.noParams
        _ = ShownState.nothing
        _ = PatternCache.shared
        _ = MatchLimits.default
        _ = MatchContext.default
        _ = MatchContext.sharedContexts
        _ = CompileContext.shared
        _ = matchDataKey
        _ = deepStackKey
    }
}
