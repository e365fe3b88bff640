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

    /// The permission bits and owner of the open file `descriptor`, or nil.
    package static func ownership(of descriptor: Int32) -> (mode: mode_t, owner: uid_t, group: gid_t)? {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        return (info.st_mode & 0o7777, info.st_uid, info.st_gid)
    }
}
