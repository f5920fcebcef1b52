import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A `crates-bench` driver process (Sources/crates-bench/NetDrivers.swift), its output
/// collected line by line. (The store's tests have the same helper, DriverProcess: both go
/// to the shared test-support target of issue 11.)
final class BenchDriver: Sendable {
    private let process: Mutex<Process>
    private let input = Pipe()
    private let collected = OutputLines()

    /// Runs `crates-bench ARGUMENTS` through `/bin/sh -c 'exec "$0" "$@" REDIRECTIONS'`, so a
    /// test can start it with standard descriptors closed.
    init(_ arguments: [String], redirections: String = "") throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "exec \"$0\" \"$@\" \(redirections)", try Self.executable()] + arguments
        let output = Pipe()
        closeOnExec(input, output)
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        output.fileHandleForReading.readabilityHandler = { [collected] handle in
            let data = handle.availableData
            if data.isEmpty { handle.readabilityHandler = nil }
            collected.append(data)
        }
        try process.run()
        self.process = Mutex(process)
    }

    deinit {
        process.withLock { if $0.isRunning { kill($0.processIdentifier, SIGKILL) } }
    }

    var pid: Int32 { process.withLock { $0.processIdentifier } }
    var lines: [String] { collected.state.withLock { $0.lines } }

    /// The first line containing `text`, waiting at most `seconds`.
    func line(containing text: String, within seconds: Double = 30) async -> String? {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            if let line = lines.first(where: { $0.contains(text) }) { return line }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return lines.first { $0.contains(text) }
    }

    /// Its exit status once it has ended and its output is read, waiting at most `seconds`.
    func exitStatus(within seconds: Double = 30) async -> Int32? {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while process.withLock({ $0.isRunning }) || !collected.state.withLock({ $0.closed }), ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(5))
        }
        return process.withLock { $0.isRunning ? nil : $0.terminationStatus }
    }

    func closeInput() {
        try? input.fileHandleForWriting.close()
    }

    static func executable() throws -> String {
        let candidates = [
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
                .map { URL(fileURLWithPath: $0).deletingLastPathComponent().appendingPathComponent("crates-bench").path },
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("crates-bench").path,
        ].compactMap { $0 }
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw TestServerError.didNotStart("crates-bench not found in \(candidates)")
        }
        return found
    }
}

/// A pipe's bytes as lines (the last one kept until its newline comes; all of it at the end).
final class OutputLines: Sendable {
    let state = Mutex<(lines: [String], partial: Data, closed: Bool)>(([], Data(), false))

    func append(_ data: Data) {
        state.withLock { state in
            if data.isEmpty {
                state.closed = true
                if !state.partial.isEmpty { state.lines.append(String(decoding: state.partial, as: UTF8.self)) }
                return
            }
            state.partial.append(data)
            while let newline = state.partial.firstIndex(of: 0x0A) {
                state.lines.append(String(decoding: state.partial[state.partial.startIndex..<newline], as: UTF8.self))
                state.partial = Data(state.partial[state.partial.index(after: newline)...])
            }
        }
    }
}

/// Whether process `pid` is gone: no such process, or a zombie (nobody reaped it yet).
func processIsGone(_ pid: Int32) -> Bool {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
          let close = text.lastIndex(of: ")")
    else { return true }
    let state = text[text.index(after: close)...].split(separator: " ").first
    return state == "Z" || state == "X"
}
