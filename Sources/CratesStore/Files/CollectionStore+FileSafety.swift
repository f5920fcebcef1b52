import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Whose files the collection is kept in: a collection path in a directory other users may
/// write (`/tmp`, a shared sticky directory) may hold a file one of them planted there.
extension CollectionStore {
    /// Refuses, before anything is created or written, a collection file this user should not
    /// trust with the collection, as ssh refuses a key file that others could have written.
    ///
    /// - Writing (`init(path:)`): the file, when it exists, must be this user's and not
    ///   writable by every user. Another user's file (an empty one planted in /tmp, say) would
    ///   be read by its owner, who may also replace it at will. The files SQLite writes beside
    ///   it (`-wal`, `-shm`, `-journal`), when they exist, must be this user's plain files:
    ///   SQLite writes the collection's changes into them, and follows a symbolic link there
    ///   to wherever it points. A dangling symbolic link of another user's in the collection's
    ///   place would have the collection created wherever it points.
    /// - Reading (`init(readingAt:)`): only a file that every user may write is refused.
    ///   Reading puts nothing of this user's into the file, so another user's collection may
    ///   be read (shared on purpose, as the README says); but what a file anyone may have
    ///   written holds is nobody's word.
    static func checkFiles(path: String, writing: Bool, user: uid_t = geteuid()) throws(StoreError) {
        let elsewhere = "choose another file with --db or CRATES_DB."
        var info = stat()
        if stat(path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFREG else { return }  // a directory: said by `inspect`
            if writing, info.st_uid != user {
                throw .unsafeFile(
                    path: path, reason: "belongs to another user (uid \(info.st_uid)), who could read what crates writes into it",
                    advice: "Choose a file of your own with --db or CRATES_DB.")
            }
            if info.st_mode & S_IWOTH != 0 {
                let mode = String(info.st_mode & 0o777, radix: 8)
                throw writing
                    ? .unsafeFile(
                        path: path, reason: "may be written by every user (mode \(mode)), who could read or change the collection in it",
                        advice: "Make it yours alone (chmod o-w \(path)), or \(elsewhere)")
                    : .unsafeFile(
                        path: path, reason: "may be written by every user (mode \(mode)): what it holds could be anyone's",
                        advice: "Its owner can make it theirs alone: chmod o-w \(path)")
            }
        } else if writing, lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK, info.st_uid != user {
            throw .unsafeFile(
                path: path,
                reason: "is another user's symbolic link (uid \(info.st_uid)) to a file that does not exist: the collection "
                    + "would be created wherever it points",
                advice: "Choose another file with --db or CRATES_DB.")
        }
        guard writing else { return }
        // SQLite names its files after the database's real path, links followed.
        let database = StoreLocation.finalTarget(of: path)
        for file in [StoreLocation.DatabaseFile.wal, .shm, .journal] {
            let side = database + file.suffix
            guard lstat(side, &info) == 0 else { continue }
            if info.st_mode & S_IFMT == S_IFLNK {
                throw .unsafeFile(
                    path: side, reason: "is a symbolic link, through which SQLite would write the collection's changes wherever it points",
                    advice: "Remove it if you did not make it, or \(elsewhere)")
            }
            if info.st_uid != user {
                throw .unsafeFile(
                    path: side,
                    reason: "belongs to another user (uid \(info.st_uid)), and SQLite would write the collection's changes into it",
                    advice: "Remove it (or have its owner remove it), or \(elsewhere)")
            }
            if info.st_mode & S_IFMT != S_IFREG {
                throw .unsafeFile(
                    path: side, reason: "is not a plain file, where SQLite keeps \(file)", advice: "Remove it, or \(elsewhere)")
            }
        }
    }
}
