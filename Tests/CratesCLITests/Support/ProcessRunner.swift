import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a finished (or stopped) child process left behind.
struct ProcessResult: Sendable, CustomStringConvertible {
    /// The exit status, or the signal number when `signalled`.
    let status: Int32
    /// Whether the process died of a signal (including the one sent at the deadline).
    let signalled: Bool
    /// Whether the deadline passed and the process was stopped.
    let timedOut: Bool
    let stdout: String
    let stderr: String

    /// Standard output split into lines, without the final empty one.
    var stdoutLines: [String] { Self.lines(stdout) }
    /// Standard error split into lines, without the final empty one.
    var stderrLines: [String] { Self.lines(stderr) }

    var description: String {
        "status \(status)\(signalled ? " (signal)" : "")\(timedOut ? " TIMED OUT" : "")\n"
            + "stdout:\n\(stdout)stderr:\n\(stderr)"
    }

    private static func lines(_ text: String) -> [String] {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        return lines
    }
}

/// Why a process could not be run at all.
enum ProcessRunnerError: Error, CustomStringConvertible {
    case binaryNotFound(name: String, searched: [String])

    var description: String {
        switch self {
        case let .binaryNotFound(name, searched):
            "no built `\(name)` found (build it first, or set CRATES_BINARY); looked in: "
                + searched.joined(separator: ", ")
        }
    }
}

/// Runs programs as child processes for tests: with a deadline, capturing standard output and
/// standard error, never hanging. Reusable by every CLI and end-to-end test.
///
/// It never calls `waitUntilExit` or reads to end-of-file unbounded: a child that hangs is
/// sent SIGTERM at the deadline, then SIGKILL, and a grandchild that keeps the pipes open
/// (a daemonised tmux server, say) costs at most `drainTimeout` more.
enum ProcessRunner {
    /// How long to wait for the output pipes to close after the process has exited.
    static let drainTimeout: Duration = .seconds(2)

    /// The built `crates` executable: `$CRATES_BINARY` when set, else the one next to the test
    /// bundle (SwiftPM puts products and the test bundle in the same build directory, whatever
    /// the scratch path).
    static func cratesBinary() throws -> URL {
        try builtProduct(named: "crates")
    }

    /// A product of this package's build, found as `cratesBinary()` finds `crates`.
    static func builtProduct(named name: String) throws -> URL {
        let environment = ProcessInfo.processInfo.environment
        if name == "crates", let override = environment["CRATES_BINARY"], !override.isEmpty {
            return URL(fileURLWithPath: override)
        }
        var directories: [URL] = []
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
    static func crates(
        _ arguments: [String], environment: [String: String] = [:], stdin: Data? = nil,
        deadline: Duration = .seconds(30)
    ) async throws -> ProcessResult {
        try await run(cratesBinary(), arguments: arguments, environment: environment, stdin: stdin, deadline: deadline)
    }

    /// Runs `executable` with `arguments`, the current environment overlaid with
    /// `environment`, `stdin` as standard input (empty when nil), in `directory`.
    static func run(
        _ executable: URL, arguments: [String], environment: [String: String] = [:], stdin: Data? = nil,
        directory: URL? = nil, deadline: Duration = .seconds(30)
    ) async throws -> ProcessResult {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        if let directory { process.currentDirectoryURL = directory }

        let output = OutputCollector()
        let errors = OutputCollector()
        let outPipe = Pipe()
        let errPipe = Pipe()
        let inPipe = Pipe()
        process.standardOutput = outPipe
        process.standardError = errPipe
        process.standardInput = inPipe
        output.collect(from: outPipe.fileHandleForReading)
        errors.collect(from: errPipe.fileHandleForReading)

        try process.run()
        let input = inPipe.fileHandleForWriting
        let data = stdin ?? Data()
        // Written off this task: a child that does not read must not block the test.
        Thread.detachNewThread {
            try? input.write(contentsOf: data)
            try? input.close()
        }

        let clock = ContinuousClock()
        let end = clock.now.advanced(by: deadline)
        var timedOut = false
        while process.isRunning {
            if clock.now >= end || Task.isCancelled {
                timedOut = true
                stop(process)
                break
            }
            try? await Task.sleep(for: .milliseconds(5))
        }
        let drainEnd = clock.now.advanced(by: drainTimeout)
        while !(output.isFinished && errors.isFinished), clock.now < drainEnd {
            try? await Task.sleep(for: .milliseconds(5))
        }
        outPipe.fileHandleForReading.readabilityHandler = nil
        errPipe.fileHandleForReading.readabilityHandler = nil

        let exited = !process.isRunning
        return ProcessResult(
            status: exited ? process.terminationStatus : -1,
            signalled: exited && process.terminationReason == .uncaughtSignal,
            timedOut: timedOut,
            stdout: output.text,
            stderr: errors.text)
    }

    /// SIGTERM, then SIGKILL if the process is still there a second later.
    private static func stop(_ process: Process) {
        process.terminate()
        let start = ContinuousClock.now
        while process.isRunning, ContinuousClock.now - start < .seconds(1) { usleep(5_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        let killed = ContinuousClock.now
        while process.isRunning, ContinuousClock.now - killed < .seconds(1) { usleep(5_000) }
    }
}

/// Bytes read from a pipe as they arrive.
/// `@unchecked Sendable`: `data` and `finished` are only touched while holding `lock`.
private final class OutputCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    private var finished = false

    func collect(from handle: FileHandle) {
        handle.readabilityHandler = { [self] handle in
            let chunk = handle.availableData
            lock.withLock {
                if chunk.isEmpty { finished = true } else { data.append(chunk) }
            }
            if chunk.isEmpty { handle.readabilityHandler = nil }
        }
    }

    var isFinished: Bool { lock.withLock { finished } }
    var text: String { lock.withLock { String(decoding: data, as: UTF8.self) } }
}
