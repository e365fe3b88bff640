import ArgumentParser

/// The values of a choice as a help text lists them, from the enum that defines them: `text,
/// json or junit`. A format added to the enum is in every help that names it.
func choices<Choice: CaseIterable & RawRepresentable>(_ type: Choice.Type) -> String where Choice.RawValue == String {
    let names = Choice.allCases.map(\.rawValue)
    guard names.count > 1 else { return names.joined() }
    return names.dropLast().joined(separator: ", ") + " or " + names[names.count - 1]
}
