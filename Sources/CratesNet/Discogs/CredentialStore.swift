import CratesCore
import Foundation
import Glibc

/// Discogs credentials as `crates auth` saved them, and whose they are.
public struct StoredCredentials: Sendable, Hashable {
    public var credentials: DiscogsCredentials
    /// The Discogs user, as `/oauth/identity` named them when they were saved.
    public var username: String?

    public init(credentials: DiscogsCredentials, username: String?) {
        self.credentials = credentials
        self.username = username
    }
}

/// Keeps the credentials in `$XDG_CONFIG_HOME/crates/credentials.json` (default
/// `~/.config/crates/`): the directory mode 0700, the file mode 0600, written atomically
/// (a temporary file in the same directory, fsync, rename), so that a crash leaves either
/// the old file or the new one, and no other user can read either.
public struct CredentialStore: Sendable {
    public let directory: String
    public var path: String { directory + "/credentials.json" }

    public init(directory: String) {
        self.directory = directory
    }

    /// `$XDG_CONFIG_HOME/crates`, else `$HOME/.config/crates` (XDG Base Directory
    /// Specification: a relative `XDG_CONFIG_HOME` is invalid and ignored).
    public static func configDirectory(environment: [String: String]) throws(CredentialStoreError) -> String {
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") { return xdg + "/crates" }
        guard let home = environment["HOME"], home.hasPrefix("/") else { throw .noConfigDirectory }
        return home + "/.config/crates"
    }

    public init(environment: [String: String]) throws(CredentialStoreError) {
        self.init(directory: try Self.configDirectory(environment: environment))
    }

    /// The saved credentials, or nil when there are none. A file readable by others, and its
    /// directory when others may enter it, are made private on the way.
    ///
    /// The file is opened without following a symbolic link (O_NOFOLLOW) and changed only
    /// through the descriptor opened (fstat, fchmod), and only when it is a regular file of
    /// this user: a link at the credentials' place, which might point at any file of the
    /// user's, is refused, never read nor chmod-ed.
    public func load() throws(CredentialStoreError) -> StoredCredentials? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard fd >= 0 else {
            switch errno {
            case ENOENT: return nil
            case ELOOP: throw .unreadable(path: path, reason: "it is a symbolic link, which crates does not follow for its credentials: remove it and run `crates auth`")
            case EACCES: throw .unreadable(path: path, reason: "permission denied")
            default: throw .unreadable(path: path, reason: Self.errnoText())
            }
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .unreadable(path: path, reason: Self.errnoText()) }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw .unreadable(path: path, reason: "it is not a regular file: remove it and run `crates auth`")
        }
        if info.st_uid == getuid(), info.st_mode & 0o077 != 0 { _ = fchmod(fd, 0o600) }
        if info.st_uid == getuid() { tightenDirectory() }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw .unreadable(path: path, reason: Self.errnoText()) }
            if count == 0 { break }
            data.append(contentsOf: buffer.prefix(count))
            // A credentials file is a few hundred bytes: anything huge is not one.
            if data.count > 1 << 20 { throw .malformed(path: path) }
        }
        guard let file = try? JSONDecoder().decode(CredentialFile.self, from: data), let stored = file.stored else {
            throw .malformed(path: path)
        }
        return stored
    }

    /// Saves `stored`, replacing what was there.
    public func save(_ stored: StoredCredentials) throws(CredentialStoreError) {
        try makeDirectory()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        guard let data = try? encoder.encode(CredentialFile(stored)) else { throw .cannotWrite(path: path, reason: "encoding failed") }
        var template = Array((directory + "/.credentials.json.XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.map { mkstemp($0) } ?? -1  // creates the file with mode 0600
        }
        guard fd >= 0 else { throw .cannotWrite(path: path, reason: Self.errnoText()) }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var failure: String? = nil
        if fchmod(fd, 0o600) != 0 { failure = Self.errnoText() }
        data.withUnsafeBytes { raw in
            var offset = 0
            while failure == nil, offset < raw.count {
                let n = write(fd, raw.baseAddress.map { $0 + offset }, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = Self.errnoText()
                } else {
                    offset += n
                }
            }
        }
        if failure == nil, fsync(fd) != 0 { failure = Self.errnoText() }
        close(fd)
        if failure == nil, rename(temporary, path) != 0 { failure = Self.errnoText() }
        if let failure {
            unlink(temporary)
            throw .cannotWrite(path: path, reason: failure)
        }
        // The rename is durable once the directory itself is synced.
        let dirfd = open(directory, O_RDONLY)
        if dirfd >= 0 {
            fsync(dirfd)
            close(dirfd)
        }
    }

    /// Removes the saved credentials. Returns false when there were none.
    @discardableResult
    public func delete() throws(CredentialStoreError) -> Bool {
        if unlink(path) == 0 { return true }
        if errno == ENOENT { return false }
        throw .cannotWrite(path: path, reason: Self.errnoText())
    }

    /// The directory of credentials crates saved is made private (0700) when others may
    /// enter it (a directory made by hand, or by an older crates, for `config.json`): only a
    /// real directory of this user's, never through a symbolic link. Best effort: reading
    /// the credentials does not fail for it.
    private func tightenDirectory() {
        var info = stat()
        guard lstat(directory, &info) == 0, info.st_mode & S_IFMT == S_IFDIR, info.st_uid == getuid(),
            info.st_mode & 0o077 != 0
        else { return }
        _ = chmod(directory, 0o700)
    }

    private func makeDirectory() throws(CredentialStoreError) {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .cannotWrite(path: directory, reason: "cannot create the directory")
        }
        // Made private even when it existed before: it holds secrets. Not through a symbolic
        // link (a configuration directory kept elsewhere is the user's to set up).
        var info = stat()
        guard lstat(directory, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { return }
        if chmod(directory, 0o700) != 0 { throw .cannotWrite(path: directory, reason: Self.errnoText()) }
    }

    private static func errnoText() -> String {
        String(cString: strerror(errno))
    }
}

/// Why the credentials could not be read or saved.
public enum CredentialStoreError: Error, Hashable, Sendable, CustomStringConvertible, LocalizedError {
    case noConfigDirectory
    case unreadable(path: String, reason: String)
    case malformed(path: String)
    case cannotWrite(path: String, reason: String)

    public var description: String {
        switch self {
        case .noConfigDirectory: "no configuration directory: set HOME or XDG_CONFIG_HOME"
        case .unreadable(let p, let r): "cannot read \(p): \(r)"
        case .malformed(let p): "\(p) is not a credentials file crates wrote: remove it or run `crates auth --logout`"
        case .cannotWrite(let p, let r): "cannot save \(p): \(r)"
        }
    }

    public var errorDescription: String? { description }
}

/// The file's JSON: one object with a `kind` and the fields that kind needs.
private struct CredentialFile: Codable {
    var kind: String
    var token: String?
    var tokenSecret: String?
    var consumerKey: String?
    var consumerSecret: String?
    var username: String?

    enum CodingKeys: String, CodingKey {
        case kind, token, username
        case tokenSecret = "token_secret"
        case consumerKey = "consumer_key"
        case consumerSecret = "consumer_secret"
    }

    init(_ stored: StoredCredentials) {
        username = stored.username
        switch stored.credentials {
        case .personalToken(let t):
            kind = "token"
            token = t
        case .consumer(let key, let secret):
            kind = "consumer"
            consumerKey = key
            consumerSecret = secret
        case .oauth(let key, let secret, let t, let ts):
            kind = "oauth"
            consumerKey = key
            consumerSecret = secret
            token = t
            tokenSecret = ts
        }
    }

    var stored: StoredCredentials? {
        let credentials: DiscogsCredentials
        switch kind {
        case "token":
            guard let token, !token.isEmpty else { return nil }
            credentials = .personalToken(token)
        case "consumer":
            guard let consumerKey, let consumerSecret else { return nil }
            credentials = .consumer(key: consumerKey, secret: consumerSecret)
        case "oauth":
            guard let consumerKey, let consumerSecret, let token, let tokenSecret else { return nil }
            credentials = .oauth(consumerKey: consumerKey, consumerSecret: consumerSecret, token: token, tokenSecret: tokenSecret)
        default:
            return nil
        }
        return StoredCredentials(credentials: credentials, username: username)
    }
}

/// The registered application's consumer key and secret, for OAuth: from
/// `CRATES_DISCOGS_CONSUMER_KEY` / `CRATES_DISCOGS_CONSUMER_SECRET`, else `config.json` in the
/// configuration directory (`{"discogs_consumer_key": "…", "discogs_consumer_secret": "…"}`),
/// else the project's built-in values (none yet: crates has no registered application).
public struct DiscogsConsumer: Sendable, Hashable {
    public var key: String
    public var secret: String

    /// Built into crates once the project registers its application with Discogs.
    public static let builtIn: DiscogsConsumer? = nil

    public static func resolve(environment: [String: String], configDirectory: String?) -> DiscogsConsumer? {
        if let key = environment["CRATES_DISCOGS_CONSUMER_KEY"], let secret = environment["CRATES_DISCOGS_CONSUMER_SECRET"],
            !key.isEmpty, !secret.isEmpty
        {
            return DiscogsConsumer(key: key, secret: secret)
        }
        if let dir = configDirectory, let data = FileManager.default.contents(atPath: dir + "/config.json"),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let key = object["discogs_consumer_key"] as? String, let secret = object["discogs_consumer_secret"] as? String,
            !key.isEmpty, !secret.isEmpty
        {
            return DiscogsConsumer(key: key, secret: secret)
        }
        return builtIn
    }
}

extension StoredCredentials: CustomStringConvertible, CustomDebugStringConvertible {
    public var description: String { "\(credentials) for \(username ?? "an unknown user")" }
    public var debugDescription: String { description }
}
