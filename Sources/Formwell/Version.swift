/// Formwell's version, "MAJOR.MINOR.PATCH": one constant for the library (`fw_version`), the
/// `formwell` tool (`--version`) and the Makefile (which reads it from this line).
public let formwellVersion: StaticString = "0.6.0"
