import Foundation

/// What the file system says of a file, for the recorder's recovery: read here, where the C
/// `stat` structure's fields are visible through Foundation alone.
package enum FileFacts {
    /// The bytes the file at `path` has allocated on disk (`st_blocks` × 512), not following a
    /// link; nil when it cannot be read. A sparse file has fewer than its length.
    package static func allocatedBytes(path: String) -> Int64? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return Int64(info.st_blocks) * 512
    }

    /// Whether the open file `descriptor` is still the file at `path` (not following a link):
    /// the same device and inode, and not removed.
    package static func isStill(_ descriptor: Int32, at path: String) -> Bool {
        var open = stat(), named = stat()
        guard fstat(descriptor, &open) == 0, lstat(path, &named) == 0 else { return false }
        return open.st_nlink > 0 && open.st_dev == named.st_dev && open.st_ino == named.st_ino
    }

    /// The permission bits and owner of the open file `descriptor`, or nil.
    package static func ownership(of descriptor: Int32) -> (mode: mode_t, owner: uid_t, group: gid_t)? {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        return (info.st_mode & 0o7777, info.st_uid, info.st_gid)
    }

    /// Whether the open file `descriptor` is a regular file (not a pipe, a device or a directory).
    package static func isRegularFile(_ descriptor: Int32) -> Bool {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return false }
        return info.st_mode & S_IFMT == S_IFREG
    }

    /// What the file open at `descriptor` (or, not following a link, at `path`) is when it is not
    /// a regular file, in words (`a FIFO`, `a device`, `a socket`, `a directory`); nil for a
    /// regular file or when it cannot be told.
    package static func notRegularKind(descriptor: Int32? = nil, path: String? = nil) -> String? {
        var info = stat()
        if let descriptor {
            guard fstat(descriptor, &info) == 0 else { return nil }
        } else if let path {
            guard lstat(path, &info) == 0 else { return nil }
        } else {
            return nil
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFIFO: return "a FIFO"
        case S_IFCHR, S_IFBLK: return "a device"
        case S_IFSOCK: return "a socket"
        case S_IFDIR: return "a directory"
        default: return "not a file"
        }
    }
}
