import Formwell

// The library version, "MAJOR.MINOR.PATCH", is `formwellVersion` in Sources/Formwell/Version.swift.
/// Bumped on any incompatible change of the C ABI; bindings check it on load.
let formwellABIVersion: Int32 = 1

/// The library version as a static NUL-terminated string ("MAJOR.MINOR.PATCH"); never free it.
/// Returns: the version string (static, never NULL).
@c public func fw_version() -> UnsafePointer<CChar> {
    staticCString(formwellVersion)
}

/// The ABI number; it changes whenever a function's signature or meaning changes incompatibly.
/// Returns: the ABI number, FW_ABI_VERSION of the header the library was built with.
@c public func fw_abi_version() -> Int32 {
    formwellABIVersion
}

/// A static NUL-terminated description of a status code (never NULL, never free it);
/// unknown codes give "unknown status code".
/// Returns: a static description (never NULL).
@c public func fw_status_string(_ status: Int32) -> UnsafePointer<CChar> {
    guard let known = fw_status(rawValue: status) else { return staticCString("unknown status code") }
    return staticCString(known.staticDescription)
}

/// The status of the calling thread's last Formwell call (FW_OK after a success).
/// Returns: the last status of this thread's calls.
@c public func fw_last_error_code() -> fw_status {
    ThreadState.current?.pointee.status ?? .FW_OK
}

/// Copies the detail message of the calling thread's last failed call into buf ("" after a success),
/// in the usual buffer style (see fw_field_value). This call does not change the last error.
/// Returns: FW_OK; FW_ERR_BUFFER_TOO_SMALL (a truncated message is written); FW_ERR_NULL_ARGUMENT for a NULL buf with buf_size > 0.
@c public func fw_last_error_message(
    _ buf: UnsafeMutablePointer<CChar>?, _ buf_size: UInt, _ out_length: UnsafeMutablePointer<UInt>?
) -> fw_status {
    let message = ThreadState.current?.pointee.message ?? "per-thread error storage is unavailable"
    do {
        try CStringOutput.write(message, to: buf, capacity: buf_size, length: out_length)
        return .FW_OK
    } catch {
        return error.status
    }
}

/// The byte offset the calling thread's last failure refers to: the position in a rejected pattern
/// (FW_ERR_INVALID_PATTERN, or FW_ERR_INVALID_SPEC when PCRE2 refused a spec's pattern) or of the first
/// bad byte (FW_ERR_INVALID_UTF8); -1 when there is none.
/// Returns: the offset, or -1.
@c public func fw_last_error_offset() -> Int64 {
    ThreadState.current?.pointee.offset ?? -1
}

private func staticCString(_ text: StaticString) -> UnsafePointer<CChar> {
    UnsafeRawPointer(text.utf8Start).assumingMemoryBound(to: CChar.self)
}
