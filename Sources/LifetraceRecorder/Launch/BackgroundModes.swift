import Foundation

/// The background modes an app declares (`UIBackgroundModes` in its Info.plist: `audio`,
/// `location`, `processing`, `fetch`, `remote-notification`, ...), as the trace's metadata
/// writes them.
public enum BackgroundModes {
    /// The Info.plist key.
    public static let infoPlistKey = "UIBackgroundModes"

    /// The modes an Info.plist dictionary declares: nil without a dictionary (unknown) or when the
    /// key holds something other than a list of strings; empty when the key is absent (none).
    public static func declared(infoDictionary: [String: Any]?) -> [String]? {
        guard let infoDictionary else { return nil }
        guard let value = infoDictionary[infoPlistKey] else { return [] }
        guard let modes = value as? [String] else { return nil }
        return modes
    }

    /// The modes of the running app: its main bundle's Info.plist on Apple platforms
    /// (`Bundle.main.infoDictionary`); unknown elsewhere, where no Info.plist describes the app.
    public static func declared() -> [String]? {
        #if canImport(Darwin)
        return declared(infoDictionary: Bundle.main.infoDictionary)
        #else
        return nil
        #endif
    }

    /// The metadata value: the modes comma-separated without spaces, in declared order; a mode is
    /// trimmed, and one that is empty or holds a comma or a space (no real mode does) is left out.
    public static func metadataValue(_ modes: [String]) -> String {
        modes.map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.contains(",") && !$0.contains(" ") }
            .joined(separator: ",")
    }

    /// The modes in a metadata value (the inverse of ``metadataValue(_:)``).
    public static func parse(metadataValue: String) -> [String] {
        metadataValue.split(separator: ",").map(String.init)
    }
}
