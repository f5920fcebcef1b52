import CratesTestSupport
import Foundation
import Testing

/// The shared runner itself (CratesTestSupport): deadlines hold, all output and the status
/// come back, and children start clean.
@Suite("ProcessRunner", .processTimeLimit)
struct ProcessRunnerTests {
    static let shell = URL(fileURLWithPath: "/bin/sh")

    @Test("captures stdout, stderr, stdin and the exit status")
    func captures() async throws {
        let result = try await ProcessRunner.run(
            Self.shell, arguments: ["-c", "cat; echo out; echo err >&2; exit 3"], stdin: Data("in\n".utf8))
        #expect(result.status == 3)
        #expect(!result.signalled)
        #expect(!result.timedOut)
        #expect(result.stdoutLines == ["in", "out"])
        #expect(result.stderrLines == ["err"])
    }

    /// What the runner before this one lost under load: the tail of a long output, still in
    /// the pipe when the child exited.
    @Test("every byte of a long output on both streams, and of a long input")
    func longOutput() async throws {
        let input = Data((0..<300_000).map { UInt8(ascii: "a") + UInt8($0 % 26) })
        let result = try await ProcessRunner.run(
            Self.shell, arguments: ["-c", "cat; head -c 1000000 /dev/zero | tr '\\0' e >&2; echo end"], stdin: input)
        #expect(result.succeeded, "\(result.status)")
        #expect(result.stdout.utf8.count == input.count + 4)
        #expect(Data(result.stdout.utf8.prefix(input.count)) == input)
        #expect(result.stdout.hasSuffix("end\n"))
        #expect(result.stderr.utf8.count == 1_000_000 && result.stderr.utf8.allSatisfy { $0 == UInt8(ascii: "e") })
    }

    @Test("a process past its deadline is stopped, not waited for")
    func deadline() async throws {
        let result = try await ProcessRunner.run(Self.shell, arguments: ["-c", "echo started; exec sleep 60"],
                                                 deadline: .milliseconds(300))
        #expect(result.timedOut)
        #expect(result.signalled && result.status == SIGTERM)
        #expect(result.stdoutLines == ["started"])
    }

    @Test("a grandchild holding the pipes open does not hang the runner")
    func grandchild() async throws {
        let result = try await ProcessRunner.run(Self.shell, arguments: ["-c", "sleep 5 & echo parent done"],
                                                 deadline: .seconds(120))
        #expect(result.status == 0)
        #expect(!result.timedOut)
        #expect(result.stdoutLines == ["parent done"])
    }

    @Test("a child starts with an empty signal mask and nothing open but 0, 1 and 2")
    func cleanStart() async throws {
        // Held open here while the child starts: it must not cross over.
        let directory = try TemporaryDirectory()
        let held = open(directory.file("held"), O_CREAT | O_WRONLY, 0o600)
        defer { close(held) }
        // exec: the program's own status (a shell blocks every signal for a moment while it
        // forks, which a child reading the shell's status could see).
        let status = try await ProcessRunner.run(Self.shell, arguments: ["-c", "exec grep -E '^Sig(Blk|Ign):' /proc/self/status"])
        #expect(status.succeeded, "\(status)")
        let masks = Dictionary(uniqueKeysWithValues: status.stdoutLines.compactMap { line -> (String, UInt64)? in
            let parts = line.split(separator: ":")
            guard parts.count == 2, let value = UInt64(parts[1].trimmingCharacters(in: .whitespaces), radix: 16) else { return nil }
            return (String(parts[0]), value)
        })
        #expect(masks["SigBlk"] == 0, "\(status.stdout)")
        // Signals 1 to 31 at their defaults (glibc itself ignores its internal 32 and 33).
        #expect(masks["SigIgn"].map { $0 & 0x7FFF_FFFF } == 0, "\(status.stdout)")
        let descriptors = try await ProcessRunner.run(Self.shell, arguments: ["-c", "ls /proc/$$/fd"])
        #expect(descriptors.succeeded && descriptors.stdoutLines == ["0", "1", "2"], "\(descriptors)")
    }

    @Test("in the background: its pid, its output so far, a signal, then its result")
    func background() async throws {
        let child = try ChildProcess.start(Self.shell, arguments: ["-c", "echo ready; read line; echo \"got $line\"; exec sleep 600"],
                                           keepStdinOpen: true, deadline: .seconds(300))
        try await waitUntil("the child ready") { child.stdoutSoFar == "ready\n" }
        child.write(Data("hello\n".utf8))
        try await waitUntil("the child's answer") { child.stdoutSoFar.hasSuffix("got hello\n") }
        #expect(!child.hasExited)
        #expect(child.signal(SIGINT))
        let result = await child.result()
        #expect(result.signalled && result.status == SIGINT && !result.timedOut, "\(result)")
        #expect(!child.signal(SIGINT), "a reaped child is never signalled again")
    }

    @Test("finds the built crates binary")
    func findsCrates() throws {
        let binary = try ProcessRunner.cratesBinary()
        #expect(FileManager.default.isExecutableFile(atPath: binary.path))
        #expect(binary.lastPathComponent == "crates")
    }

    @Test("waiting: the value when it comes; a clear error naming what did not happen")
    func waits() async throws {
        let box = LockBox(0)
        let value = try await waitFor("a value") { box.withLock { $0 += 1; return $0 >= 3 ? $0 : nil } }
        #expect(value == 3)
        do {
            try await waitUntil("the impossible", within: .milliseconds(50), lastSeen: { "nothing" }) { false }
            Issue.record("no timeout")
        } catch let timeout as WaitTimeout {
            #expect(timeout.description.contains("the impossible") && timeout.description.contains("nothing"))
        }
    }
}
