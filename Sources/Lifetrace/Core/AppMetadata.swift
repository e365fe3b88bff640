import LifetraceFormat

/// The trace metadata that names the app and the device, from what the platform reports: the
/// bundle's Info.plist, the OS's name and version, the machine's model identifier. `os` matters
/// to the analysis (some callback sequences are allowed on some iOS versions only).
public enum AppMetadata {
    /// The fields, in the order `lifetrace info` lists them: `app` (`CFBundleIdentifier`),
    /// `appVersion` (`CFBundleShortVersionString (CFBundleVersion)`), `os` (`iOS 17.5.1`),
    /// `device` (`iPhone15,2`), `recorder`. Unknown values are left out.
    public static func fields(
        info: [String: String], osName: String, osVersion: (major: Int, minor: Int, patch: Int), machine: String?
    ) -> [(key: String, value: String)] {
        var fields: [(key: String, value: String)] = []
        if let app = info["CFBundleIdentifier"], !app.isEmpty { fields.append(("app", app)) }
        if let short = info["CFBundleShortVersionString"], !short.isEmpty {
            let build = info["CFBundleVersion"].map { " (\($0))" } ?? ""
            fields.append(("appVersion", short + build))
        }
        fields.append(("os", "\(osName) \(osVersion.major).\(osVersion.minor).\(osVersion.patch)"))
        if let machine, !machine.isEmpty { fields.append(("device", machine)) }
        fields.append(("recorder", recorderName))
        return fields
    }

    /// The `recorder` metadata value of traces written through ``Lifetrace``.
    public static let recorderName = "Lifetrace"
}
