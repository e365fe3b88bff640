import Foundation

/// The symbol files given with `--symbols` (or `symbols:` in `.lifetrace.yml`), by UUID: each path
/// a `.dSYM` bundle, a folder holding such bundles (or Mach-O files) at any depth, or a Mach-O file
/// itself. Apple images are matched to them by their `LC_UUID` (docs/REPORTS.md, "Symbols of
/// Apple images"), never by name: a dSYM of another build names no frame.
public struct SymbolFiles: Sendable {
    /// The files by UUID (the first given wins).
    public private(set) var byUUID: [String: MachOSymbolFile] = [:]
    /// What could not be used, one line each: a path that does not exist or holds no Mach-O file.
    public private(set) var problems: [String] = []

    /// The most files looked at under one folder, so that a folder given by mistake (`/`) costs
    /// a bounded walk.
    static let folderFileLimit = 100_000

    /// The symbol files under `paths`.
    public init(paths: [String]) {
        for path in paths { add(path) }
    }

    private mutating func add(_ path: String) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            problems.append("\(path): no such symbol file or folder")
            return
        }
        var found = false
        if !isDirectory.boolValue {
            // Only a regular file is opened: a FIFO would block, a device read without end.
            let type = (try? FileManager.default.attributesOfItem(atPath: path))?[.type] as? FileAttributeType
            let regular = type == .typeRegular
                || (type == .typeSymbolicLink
                    && (try? FileManager.default.attributesOfItem(atPath: URL(fileURLWithPath: path).resolvingSymlinksInPath().path))?[.type]
                        as? FileAttributeType == .typeRegular)
            found = regular && addFile(path)
        } else if let walk = FileManager.default.enumerator(atPath: path) {
            // A bundle's DWARF files and any Mach-O file under the folder, whatever it is called.
            var looked = 0
            while let relative = walk.nextObject() as? String, looked < Self.folderFileLimit {
                looked += 1
                let file = path + "/" + relative
                if (walk.fileAttributes?[.type] as? FileAttributeType) == .typeRegular, addFile(file) { found = true }
            }
        }
        if !found { problems.append("\(path): holds no Mach-O file with a UUID (a .dSYM bundle, or an unstripped Mach-O file)") }
    }

    /// Adds the file's architectures; false when it is no Mach-O file with a UUID.
    private mutating func addFile(_ path: String) -> Bool {
        let files = MachOSymbolFile.read(path: path)
        for file in files where byUUID[file.uuid] == nil { byUUID[file.uuid] = file }
        return !files.isEmpty
    }
}
