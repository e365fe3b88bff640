import LifetraceFormat

/// What an export's table of contents (`xcrun xctrace export --toc`) says about its first run:
/// the device, the OS, the recorded process and the template.
///
/// The device's own name (often a person's name) is left out on purpose.
struct XctraceTableOfContents: Sendable {
    /// The device's model (`device` element, `model` attribute), such as `iPhone 15 Pro`.
    var deviceModel: String?
    /// The device's platform (`platform`), such as `iOS`.
    var platform: String?
    /// The OS version (`os-version`), such as `17.5.1 (21F90)`.
    var osVersion: String?
    /// The recorded process's name (target `process` element, `name` attribute).
    var processName: String?
    /// The recorded process's ID (`pid`).
    var pid: Int64?
    /// The recording template's name (`template-name`), such as `App Launch`.
    var templateName: String?
    /// The Instruments version (`instruments-version`).
    var instrumentsVersion: String?
    /// The recording's start date (`start-date`), as written.
    var startDate: String?

    /// The metadata fields these give, in the order of the text form's `meta` line.
    var metadata: [(key: String, value: String)] {
        var fields: [(key: String, value: String)] = []
        if let processName { fields.append(("app", processName)) }
        if let osVersion { fields.append(("os", [platform, osVersion].compactMap { $0 }.joined(separator: " "))) }
        if let deviceModel { fields.append(("device", deviceModel)) }
        let recorder = ["Instruments", instrumentsVersion, templateName.map { "(\($0))" }].compactMap { $0 }
        if recorder.count > 1 { fields.append(("recorder", recorder.joined(separator: " "))) }
        if let startDate { fields.append(("recorded", startDate)) }
        return fields
    }
}
