import CratesCore
import CratesLabels
import CratesNet
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// crates' preferences file, `config.json` in the configuration directory
/// (`$XDG_CONFIG_HOME/crates/`, default `~/.config/crates/`, beside the credentials): read
/// at every start, shown and changed by `crates config`.
///
/// Changing a key rewrites only that member's text: the person's order, spacing and the
/// members crates does not know stay as written (another crates' keys, say), and the file is
/// replaced atomically (a killed `crates config` leaves the old file or the new one). A file
/// that is not JSON is never written over: what it holds would be lost. A UTF-8 byte order
/// mark before the JSON (Windows' Notepad writes one) is read past and kept. A file every
/// user may write, or another user's, is neither read nor written, as the collection's are
/// not (`CollectionStore.checkFiles`): it names the Discogs folder a sync adds copies to and
/// the application crates signs in with, and what it holds could be anyone's.
public struct ConfigurationFile: Sendable {
    public let path: String

    public init(path: String) {
        self.path = path
    }

    /// The file in the configuration directory `environment` names.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) throws(ConfigurationError) {
        do {
            path = try CredentialStore.configDirectory(environment: environment) + "/config.json"
        } catch {
            throw .noDirectory(error.description)
        }
    }

    /// The preferences in effect: the file's where it sets a value a key takes, else the
    /// defaults; every key at its default when there is no configuration directory.
    public static func current(environment: [String: String] = ProcessInfo.processInfo.environment) -> Preferences {
        (try? ConfigurationFile(environment: environment))?.load() ?? Preferences()
    }

    /// The label layouts a configuration may name.
    public static var layouts: [String] { LabelSheetLayout.knownNames }

    static func layoutProblem(_ name: String) -> String? {
        do {
            _ = try LabelSheetLayout.named(name)
            return nil
        } catch {
            return error.description
        }
    }

    /// The preferences the file sets (the defaults when there is none).
    public func load() -> Preferences {
        switch read() {
        case .success(nil): Preferences()
        case .success(let bytes?):
            Preferences(reading: Self.withoutByteOrderMark(bytes).text, path: path, layouts: Self.layouts, layoutProblem: Self.layoutProblem)
        case .failure(let reason): Preferences(unreadable: "\(path) cannot be read: \(reason)")
        }
    }

    /// UTF-8's byte order mark, EF BB BF: no JSON value (RFC 8259 §8.1 lets a reader ignore
    /// it), but the first bytes a Windows editor writes.
    static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// The file's bytes past a byte order mark, and the mark (empty when there is none).
    static func withoutByteOrderMark(_ bytes: [UInt8]) -> (text: [UInt8], mark: [UInt8]) {
        bytes.starts(with: byteOrderMark) ? (Array(bytes.dropFirst(byteOrderMark.count)), byteOrderMark) : (bytes, [])
    }

    /// What crates says on standard error as it starts, one line a problem: the file named,
    /// its line, what is wrong, and what crates does instead.
    public static func startupWarnings(_ preferences: Preferences) -> [String] {
        preferences.problems.map { problem in
            if preferences.isUnusable {
                return "crates: \(problem): every setting has its default until it is fixed, and `crates sync` adds no copies"
            }
            switch problem.key {
            case .syncFolder?: return "crates: \(problem): `crates sync` adds no copies until it is fixed (or given --folder)"
            case let key?: return "crates: \(problem); using the default, \(key.defaultText)"
            case nil: return "crates: \(problem); ignored"
            }
        }
    }

    // MARK: crates config

    /// One key as `crates config` lists it.
    public struct Entry: Sendable, Hashable {
        public var key: PreferenceKey
        /// The value in effect, as shown ("" where the default is none); a secret as "(set)".
        public var value: String
        /// Whether the file sets it.
        public var isSet: Bool
        public var defaultText: String { key.defaultText }
    }

    /// Every key, in the order `crates config` lists them.
    public static func entries(_ preferences: Preferences) -> [Entry] {
        PreferenceKey.allCases.map { key in
            let value = preferences[key]
            let shown = key.isSecret ? (value == nil ? "" : "(set)") : (value?.description ?? "")
            return Entry(key: key, value: shown, isSet: preferences.isSet(key))
        }
    }

    /// The key named `name` (exactly as listed, or in any case).
    public static func key(named name: String) throws(ConfigurationError) -> PreferenceKey {
        if let key = PreferenceKey(rawValue: name) ?? PreferenceKey.allCases.first(where: { $0.rawValue.lowercased() == name.lowercased() }) {
            return key
        }
        throw .unknownKey(name)
    }

    /// The value `text` names for `key`, or why `key` cannot be set to it on a command line
    /// (a value of the wrong kind, a secret).
    public static func value(_ key: PreferenceKey, typed text: String, path: String) throws(ConfigurationError) -> PreferenceValue {
        guard !key.isSecret else { throw .secretOnCommandLine(key, path: path) }
        guard let value = key.value(typed: text, layoutProblem: Self.layoutProblem) else {
            throw .refused(key, text, allowed: key.allowed(layouts: Self.layouts))
        }
        return value
    }

    /// Sets `key` to the value `text` names; returns the value as stored.
    @discardableResult
    public func set(_ key: PreferenceKey, to text: String) throws(ConfigurationError) -> PreferenceValue {
        let value = try Self.value(key, typed: text, path: path)
        try rewrite { $0?.setting(key.rawValue, to: value.literal) ?? JSONOutline.document([(key.rawValue, value.literal)]) }
        return value
    }

    /// Removes `key` from the file: it has its default again.
    public func reset(_ key: PreferenceKey) throws(ConfigurationError) {
        try rewrite { $0?.removing(key.rawValue) }
    }

    /// Replaces the file with what `change` makes of its outline (nil: there is no file);
    /// `change` returning nil writes nothing.
    private func rewrite(_ change: (JSONOutline?) -> [UInt8]?) throws(ConfigurationError) {
        let outline: JSONOutline?
        var mark: [UInt8] = []
        switch read() {
        case .failure(let reason):
            throw .unusable("\(path) cannot be read: \(reason)", path: path)
        case .success(nil):
            outline = nil
        case .success(let bytes?):
            let text: [UInt8]
            (text, mark) = Self.withoutByteOrderMark(bytes)
            do {
                outline = try JSONOutline(text)
            } catch {
                throw .unusable("\(path) is not valid JSON: \(error)", path: path)
            }
            if outline?.members == nil {
                throw .unusable("\(path) must hold a JSON object, such as {\"covers\": false}", path: path)
            }
        }
        guard let changed = change(outline), changed != outline?.bytes else { return }
        let bytes = mark + changed
        let directory = (path as NSString).deletingLastPathComponent
        if !FileManager.default.fileExists(atPath: directory) {
            // As the credentials' directory: private, since the file may name an application's keys.
            do {
                try FileManager.default.createDirectory(
                    atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw .cannotWrite("cannot create the directory \(directory): \(SystemError.describe(error))")
            }
        }
        do throws(ExportError) {
            try ExportFile.write(bytes: bytes, to: path)
        } catch {
            throw .cannotWrite(error.description)
        }
    }

    /// The file's bytes; nil when there is none. A file larger than 1 MB is not a
    /// configuration crates wrote or a person typed.
    private func read() -> Result<[UInt8]?, ConfigurationError.ReadError> {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            if errno == ENOENT { return .success(nil) }
            return .failure(.init(String(cString: strerror(errno))))
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return .failure(.init(String(cString: strerror(errno)))) }
        guard info.st_mode & S_IFMT == S_IFREG else { return .failure(.init("it is not a regular file")) }
        if info.st_mode & S_IWOTH != 0 {
            let mode = String(info.st_mode & 0o777, radix: 8)
            return .failure(.init(
                "it may be written by every user (mode \(mode)), so what it holds could be anyone's; make it yours alone: chmod o-w \(path)"))
        }
        if info.st_uid != geteuid() {
            return .failure(.init(
                "it belongs to another user (uid \(info.st_uid)), who could change it at will; make it yours, or remove it"))
        }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { return .failure(.init(String(cString: strerror(errno)))) }
            if count == 0 { break }
            bytes += buffer.prefix(count)
            if bytes.count > 1 << 20 { return .failure(.init("it is larger than 1 MB, too large for a configuration")) }
        }
        return .success(bytes)
    }
}

/// Why `crates config` did not do what was asked.
public enum ConfigurationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A reason a file could not be read, in the C library's words.
    public struct ReadError: Error, Hashable, Sendable, CustomStringConvertible {
        public var description: String
        init(_ description: String) { self.description = description }
    }

    case noDirectory(String)
    case unknownKey(String)
    /// A value the key does not take, with what it takes.
    case refused(PreferenceKey, String, allowed: String)
    case secretOnCommandLine(PreferenceKey, path: String)
    /// The file is there but not one crates can change without losing what it holds.
    case unusable(String, path: String)
    case cannotWrite(String)

    /// A usage error (exit 64) rather than a failure.
    public var isUsage: Bool {
        switch self {
        case .unknownKey, .refused, .secretOnCommandLine: true
        default: false
        }
    }

    public var description: String {
        switch self {
        case .noDirectory(let reason): reason
        case .unknownKey(let name):
            "\(name.isEmpty ? "\"\"" : ControlCharacters.cleaned(name)) is not a setting; the settings are "
                + PreferenceKey.allCases.map(\.rawValue).joined(separator: ", ")
        case .refused(let key, let text, let allowed):
            "\(key.rawValue) cannot be \(text.isEmpty ? "empty" : "\"\(ControlCharacters.cleaned(text))\""): it takes \(allowed)"
        case .secretOnCommandLine(let key, let path):
            "\(key.rawValue) is not given on the command line (other users can see a command's arguments): write it in \(path)"
        case .unusable(let problem, _):
            "\(problem): fix it or remove it first (crates does not write over a file it cannot read: what it holds would be lost)"
        case .cannotWrite(let reason): reason
        }
    }
}
