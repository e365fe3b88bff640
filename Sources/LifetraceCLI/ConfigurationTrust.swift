import Foundation

/// Who may have written a configuration file found by the upward search: a file that someone
/// other than the user (or root) can write, or that lies in a directory they can write, may
/// have been put there to relax the gate (`only: [time-order]` above a job's working
/// directory), so the search never reads it (docs/CLI.md, "Configuration file").
enum ConfigurationTrust {
    /// The user's home directory, where the search ends: `$HOME`, else the password database's.
    static var home: String? {
        if let home = ProcessInfo.processInfo.environment["HOME"], !home.isEmpty { return home }
        guard let entry = getpwuid(geteuid()), let directory = entry.pointee.pw_dir else { return nil }
        return String(cString: directory)
    }

    /// Who other than the user can write the file or directory `status` describes, in words, or
    /// nil when only the user (or root) can: another owner; every user (the write bit for
    /// others, a world-writable temporary directory too, sticky or not); or a group that is not
    /// the user's own primary group.
    static func othersCanWrite(_ status: stat) -> String? {
        let user = geteuid()
        if status.st_uid != user && status.st_uid != 0 { return "user \(status.st_uid), its owner," }
        if status.st_mode & S_IWOTH != 0 { return "every user" }
        if status.st_mode & S_IWGRP != 0 && status.st_gid != getegid() && status.st_gid != 0 {
            return "group \(status.st_gid)"
        }
        return nil
    }
}
