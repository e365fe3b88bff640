extension String {
    /// The text `bytes` spell in UTF-8, or nil when they are not valid UTF-8 (a truncated or
    /// overlong sequence, a surrogate, a scalar past U+10FFFF): what every reader of names and
    /// paths in the format and the recorder's region decodes them with.
    ///
    /// The standard library's `String(validating:as:)` is used where it exists (macOS 15, iOS
    /// 18, and Linux); the package's older declared platforms take ``validUTF8Fallback(_:)``,
    /// which accepts and rejects exactly the same bytes.
    @inlinable
    package init?(validUTF8 bytes: some Collection<UInt8>) {
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            guard let text = String(validating: bytes, as: UTF8.self) else { return nil }
            self = text
        } else {
            guard let text = Self.validUTF8Fallback(bytes) else { return nil }
            self = text
        }
    }

    /// `bytes` decoded after the standard library's UTF-8 parser found every scalar valid;
    /// nil at its first error.
    @inlinable
    package static func validUTF8Fallback(_ bytes: some Collection<UInt8>) -> String? {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid: continue
            case .emptyInput: return String(decoding: bytes, as: UTF8.self)
            case .error: return nil
            }
        }
    }
}
