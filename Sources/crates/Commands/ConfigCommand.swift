import ArgumentParser
import CratesApp
import CratesCore

/// `crates config [KEY [VALUE]]`: crates' preferences, shown and set.
struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Show or set your preferences (config.json).",
        discussion: """
            The preferences live in config.json in the configuration directory \
            ($XDG_CONFIG_HOME/crates/, default ~/.config/crates/, beside the credentials): \
            one JSON object, a member per setting. Without arguments, every setting is listed \
            with its value and its default; with KEY, its value alone is printed (nothing \
            where it has none); with KEY VALUE, it is set. --reset gives a setting its \
            default again.

            Settings:
            \(ConfigCommand.settingsHelp)

            Setting a value rewrites only that member: the rest of the file (your order, your \
            spacing, members crates does not know) stays as written, and the file is replaced \
            atomically. A file that is not JSON is never written over: fix it first. Every \
            crates command says on standard error what is wrong with the file, naming the \
            line, and runs with the defaults; `crates sync` adds no copies until a broken \
            file is fixed, rather than put them in a folder you did not mean.

            Exit status: 0 done; 1 the file could not be read or written; 64 a setting \
            unknown or a value it does not take (the message says what it takes).

            Examples:
              crates config
              crates config covers false
              crates config covers.cacheMB 200
              crates config labels.layout letter-3x10
              crates config currency --reset
            """)

    static var settingsHelp: String {
        PreferenceKey.allCases.map { key in
            "  \(key.rawValue): \(key.summary); \(key.allowed(layouts: ["see `crates labels --help`"])) (default: \(key.defaultText))"
        }.joined(separator: "\n")
    }

    @Argument(help: ArgumentHelp("The setting to show or set.", valueName: "key"))
    var key: String?

    @Argument(help: ArgumentHelp("Its new value.", valueName: "value"))
    var value: String?

    @Flag(help: "Give KEY its default again (remove it from the file).")
    var reset = false

    func validate() throws {
        if reset, key == nil { throw ValidationError("--reset needs the KEY to give its default back to") }
        if reset, value != nil { throw ValidationError("--reset and a VALUE contradict each other: give one") }
        // Here, not in run(): a usage error thrown from run() is shown with the root's usage.
        guard let name = key else { return }
        let key = try Self.usage { () throws(ConfigurationError) in try ConfigurationFile.key(named: name) }
        if let value {
            let path = try Self.usage { () throws(ConfigurationError) in try ConfigurationFile().path }
            _ = try Self.usage { () throws(ConfigurationError) in try ConfigurationFile.value(key, typed: value, path: path) }
        }
    }

    func run() throws {
        let file = try Self.usage { () throws(ConfigurationError) in try ConfigurationFile() }
        guard let name = key else {
            try StandardStreams.out(lines: ConfigurationFile.listing(file.load(), path: file.path))
            return
        }
        let key = try Self.usage { () throws(ConfigurationError) in try ConfigurationFile.key(named: name) }
        if reset {
            try Self.usage { () throws(ConfigurationError) in try file.reset(key) }
            StandardStreams.errLine("\(key.rawValue) has its default again: \(key.defaultText)")
        } else if let value {
            let stored = try Self.usage { () throws(ConfigurationError) in try file.set(key, to: value) }
            StandardStreams.errLine("\(key.rawValue) is \(stored) (in \(file.path))")
        } else if let entry = ConfigurationFile.entries(file.load()).first(where: { $0.key == key }), !entry.value.isEmpty {
            try StandardStreams.out(entry.value + "\n")
        }
    }

    /// Runs `body`, turning a usage error (an unknown key, a value refused) into exit 64 and
    /// any other into exit 1, each with its message.
    static func usage<T>(_ body: () throws(ConfigurationError) -> T) throws -> T {
        do {
            return try body()
        } catch where error.isUsage {
            throw ValidationError(error.description)
        } catch {
            throw CLIError(error.description)
        }
    }
}
