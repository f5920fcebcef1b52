import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A `crates-bench` driver process (see Sources/crates-bench/Drivers.swift) under test: its
/// standard input to send on, its standard output collected line by line.
final class DriverProcess {
    let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    let lines = LineCollector()

    /// Starts `crates-bench ARGUMENTS`, optionally through `prefix` (e.g. setpriv).
    init(_ arguments: [String], prefix: [String] = []) throws {
        let executable = try Self.executable()
        if prefix.isEmpty {
            process.executableURL = executable
            process.arguments = arguments
        } else {
            process.executableURL = URL(fileURLWithPath: prefix[0])
            process.arguments = Array(prefix.dropFirst()) + [executable.path] + arguments
        }
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        for fd in [input.fileHandleForReading.fileDescriptor, input.fileHandleForWriting.fileDescriptor,
                   output.fileHandleForReading.fileDescriptor, output.fileHandleForWriting.fileDescriptor] {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        let lines = self.lines
        output.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            if data.isEmpty { handle.readabilityHandler = nil }
            lines.append(data)
        }
        try process.run()
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        output.fileHandleForReading.readabilityHandler = nil
    }

    var pid: Int32 { process.processIdentifier }

    /// Sends one line on standard input.
    func send(_ line: String) {
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    func closeInput() {
        try? input.fileHandleForWriting.close()
    }

    /// The first output line that starts with `prefix`, waiting at most `seconds`.
    func line(startingWith prefix: String, within seconds: Double = 60) async -> String? {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if let line = lines.all.first(where: { $0.hasPrefix(prefix) }) { return line }
            if !process.isRunning, lines.isClosed { break }
            try? await Task.sleep(nanoseconds: 5_000_000)
        }
        return lines.all.first { $0.hasPrefix(prefix) }
    }

    /// Waits for the process to end and its output to be read to the end (at most
    /// `seconds`); its exit status, nil if it did not end.
    func exitStatus(within seconds: Double = 60) async -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning || !lines.isClosed, Date() < deadline { try? await Task.sleep(nanoseconds: 5_000_000) }
        return process.isRunning ? nil : process.terminationStatus
    }

    /// `crates-bench` sits next to the test bundle: the test target depends on it.
    static func executable() throws -> URL {
        let candidates = [
            ProcessInfo.processInfo.environment["CRATES_BENCH"],
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
                .map { URL(fileURLWithPath: $0).deletingLastPathComponent().appendingPathComponent("crates-bench").path },
            Bundle.main.executableURL?.deletingLastPathComponent().appendingPathComponent("crates-bench").path,
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("crates-bench").path,
        ].compactMap { $0 }
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw DriverMissing(searched: candidates)
        }
        return URL(fileURLWithPath: found)
    }

    struct DriverMissing: Error, CustomStringConvertible {
        var searched: [String]
        var description: String {
            "crates-bench not found (build it: swift build --product crates-bench); looked in \(searched)"
        }
    }
}

/// Bytes from a pipe, as lines (the last one kept until its newline comes).
final class LineCollector: @unchecked Sendable {
    // `@unchecked Sendable`: `complete`, `partial` and `closed` are only touched while
    // holding `lock`.
    private let lock = NSLock()
    private var complete: [String] = []
    private var partial = Data()
    private var closed = false

    func append(_ data: Data) {
        lock.lock()
        defer { lock.unlock() }
        if data.isEmpty {
            closed = true
            if !partial.isEmpty { complete.append(String(decoding: partial, as: UTF8.self)) }
            partial = Data()
            return
        }
        partial.append(data)
        while let newline = partial.firstIndex(of: 0x0A) {
            complete.append(String(decoding: partial[partial.startIndex..<newline], as: UTF8.self))
            partial = Data(partial[partial.index(after: newline)...])
        }
    }

    var all: [String] {
        lock.lock()
        defer { lock.unlock() }
        return complete
    }

    var isClosed: Bool {
        lock.lock()
        defer { lock.unlock() }
        return closed
    }
}
