import Foundation

/// Runs programs as child processes for tests: with a deadline, standard input given, all of
/// standard output and standard error collected, never hanging (see `ChildProcess` for how).
public enum ProcessRunner {
    /// The built `crates` executable: `$CRATES_BINARY` when set, else the one next to the test
    /// bundle (SwiftPM puts products and the test bundle in the same build directory, whatever
    /// the scratch path).
    public static func cratesBinary() throws -> URL {
        try builtProduct(named: "crates")
    }

    /// A product of this package's build (`crates`, `crates-bench`…), found next to the test
    /// bundle; `$CRATES_BINARY` overrides `crates`, `$CRATES_BENCH` overrides `crates-bench`.
    public static func builtProduct(named name: String) throws -> URL {
        let environment = ProcessInfo.processInfo.environment
        let override = ["crates": "CRATES_BINARY", "crates-bench": "CRATES_BENCH"][name].flatMap { environment[$0] }
        if let override, !override.isEmpty { return URL(fileURLWithPath: override) }
        var directories: [URL] = []
        if let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            directories.append(URL(fileURLWithPath: executable).deletingLastPathComponent())
        }
        for bundle in [Bundle.main] + Bundle.allBundles {
            let url = bundle.bundleURL
            directories.append(url.pathExtension == "xctest" ? url.deletingLastPathComponent() : url)
            if let executable = bundle.executableURL { directories.append(executable.deletingLastPathComponent()) }
        }
        if let first = CommandLine.arguments.first {
            directories.append(URL(fileURLWithPath: first).deletingLastPathComponent())
        }
        var searched: [String] = []
        for directory in directories {
            let candidate = directory.appendingPathComponent(name).standardizedFileURL
            guard !searched.contains(candidate.path) else { continue }
            searched.append(candidate.path)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw ProcessRunnerError.binaryNotFound(name: name, searched: searched)
    }

    /// Runs the built `crates` with `arguments`.
    public static func crates(
        _ arguments: [String], environment: [String: String] = [:], stdin: Data? = nil,
        deadline: Duration = .seconds(120)
    ) async throws -> ProcessResult {
        try await run(cratesBinary(), arguments: arguments, environment: environment, stdin: stdin, deadline: deadline)
    }

    /// Runs `executable` with `arguments`, the current environment overlaid with
    /// `environment` (or `environment` alone when `inheritEnvironment` is false), `stdin` as
    /// standard input (empty when nil), and waits for its result; at `deadline` it is stopped
    /// (SIGTERM, then SIGKILL) and the result says `timedOut`.
    public static func run(
        _ executable: URL, arguments: [String], environment: [String: String] = [:], inheritEnvironment: Bool = true,
        stdin: Data? = nil, directory: URL? = nil, deadline: Duration = .seconds(120)
    ) async throws -> ProcessResult {
        let child = try ChildProcess.start(
            executable, arguments: arguments, environment: environment, inheritEnvironment: inheritEnvironment,
            stdin: stdin, directory: directory, deadline: deadline)
        return await child.result()
    }

    /// Starts `crates ARGUMENTS` in the background (see `ChildProcess`): for tests that watch
    /// its output as it comes or signal it.
    public static func startCrates(
        _ arguments: [String], environment: [String: String] = [:], stdin: Data? = nil, keepStdinOpen: Bool = false,
        deadline: Duration? = .seconds(180)
    ) throws -> ChildProcess {
        try ChildProcess.start(
            cratesBinary(), arguments: arguments, environment: environment, stdin: stdin, keepStdinOpen: keepStdinOpen,
            deadline: deadline)
    }

    /// A shell command line as a single argument: `'…'` with embedded quotes escaped.
    public static func quote(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
