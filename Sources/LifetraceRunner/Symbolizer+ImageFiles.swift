import Foundation
import LifetraceFormat

extension Symbolizer {
    /// What is known of the images' files, each looked at once: whether it can be read and is
    /// the one recorded, and its linker stubs; and the symbol files given, for Apple images.
    struct ImageFiles {
        enum Verdict {
            /// The file to give the tools (the image's path, symbolic links resolved, or its
            /// symbol file), and the address in it where the image's header lies (a Mach-O
            /// file's `__TEXT` address; 0 for an ELF file, whose image's base is its load bias).
            case usable(String, textAddress: UInt64)
            case skipped(String)
        }

        /// The symbol files given, by UUID.
        let symbolFiles: SymbolFiles

        /// By the image's path: the file to give the tools, or why there is none.
        private var regular: [String: Verdict] = [:]
        private var buildIDs: [String: String?] = [:]
        private var linkageStubs: [String: [Range<UInt64>]] = [:]
        private var machOFiles: [String: [MachOSymbolFile]] = [:]

        init(symbolFiles: SymbolFiles) {
            self.symbolFiles = symbolFiles
        }

        /// Whether the image's frames can be looked up in its file or its symbol file, and in
        /// which. An image whose build id a symbol file given has (an Apple image's `LC_UUID`) is
        /// looked up there, wherever its own file is.
        mutating func check(_ image: LoadedImage) -> Verdict {
            if !image.buildID.isEmpty, let file = symbolFiles.byUUID[image.buildID] {
                return .usable(file.symbolizerName, textAddress: file.textAddress)
            }
            let resolved: String
            let verdict: Verdict
            if let known = regular[image.path] {
                verdict = known
            } else {
                // Only a regular file is read or given to a tool: a trace can name a FIFO,
                // which would block, or a device such as /dev/zero, which a symbolizer would read
                // without end. Of a regular file, only an ELF one: the tools name nothing in any
                // other (an empty file, a text file, /proc/self/status), and /proc/self/mem
                // cannot be read from its start at all.
                let path = URL(fileURLWithPath: image.path).resolvingSymlinksInPath().path
                let usable = FileManager.default.isReadableFile(atPath: image.path)
                    && (try? FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType) == .typeRegular
                if !usable {
                    verdict = .skipped(Self.unusable(image.path, buildID: image.buildID))
                } else if let elf = Self.startsAsELF(path), !elf {
                    // A Mach-O file (an unstripped Apple image at its recorded path) is used
                    // when its UUID is the recorded one.
                    let slices = MachOSymbolFile.read(path: path)
                    machOFiles[path] = slices
                    verdict = slices.isEmpty ? .skipped("not an ELF or Mach-O file") : .usable(path, textAddress: 0)
                } else if Self.startsAsELF(path) == nil {
                    verdict = .skipped("file not readable")
                } else {
                    verdict = .usable(path, textAddress: 0)
                }
                regular[image.path] = verdict
            }
            switch verdict {
            case .skipped: return verdict
            case .usable(let path, _): resolved = path
            }
            if let slices = machOFiles[resolved] {
                guard let slice = slices.first(where: { $0.uuid == image.buildID }) else {
                    return .skipped(image.buildID.isEmpty ? "no UUID recorded" : "UUID differs from the recorded \(image.buildID)")
                }
                return .usable(slice.symbolizerName, textAddress: slice.textAddress)
            }
            if !image.buildID.isEmpty {
                if buildIDs[resolved] == nil { buildIDs[resolved] = .some(buildID(ofFile: resolved)) }
                if buildIDs[resolved]! != image.buildID {
                    return .skipped("build id differs from the recorded \(image.buildID): rebuilt since")
                }
            }
            return .usable(resolved, textAddress: 0)
        }

        /// The file's procedure linkage table sections (``linkageStubSections(ofFile:)``).
        mutating func stubs(of file: String) -> [Range<UInt64>] {
            if let known = linkageStubs[file] { return known }
            let found = linkageStubSections(ofFile: file)
            linkageStubs[file] = found
            return found
        }

        /// Whether the file at `path` starts with the ELF magic number; nil when it cannot be read.
        private static func startsAsELF(_ path: String) -> Bool? {
            guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
            defer { try? handle.close() }
            do {
                return try handle.read(upToCount: 4) == Data([0x7F, 0x45, 0x4C, 0x46])
            } catch {
                return nil
            }
        }

        /// Why the file at `path` is not used: missing (for an image with a UUID, an Apple
        /// image's, no symbol file given has it either), unreadable, or no regular file.
        private static func unusable(_ path: String, buildID: String) -> String {
            guard FileManager.default.isReadableFile(atPath: path) else {
                guard !FileManager.default.fileExists(atPath: path) else { return "file not readable" }
                return buildID.count == 32 ? "file missing, and no symbol file given has its UUID \(buildID)" : "file missing"
            }
            return "not a regular file"
        }
    }
}
