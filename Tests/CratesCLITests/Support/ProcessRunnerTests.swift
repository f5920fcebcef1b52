import CratesTestSupport
import Foundation
import Testing

/// The runner itself: deadlines hold, output and status come back.
@Suite("ProcessRunner")
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

    @Test("a process past its deadline is stopped, not waited for")
    func deadline() async throws {
        let start = ContinuousClock.now
        let result = try await ProcessRunner.run(Self.shell, arguments: ["-c", "echo started; exec sleep 60"],
                                                 deadline: .milliseconds(300))
        #expect(result.timedOut)
        #expect(result.signalled)
        #expect(result.stdoutLines == ["started"])
        // A bound, not a speed assertion: far below the 60 s the child wanted.
        #expect(ContinuousClock.now - start < .seconds(30))
    }

    @Test("a grandchild holding the pipes open does not hang the runner")
    func grandchild() async throws {
        let result = try await ProcessRunner.run(Self.shell, arguments: ["-c", "sleep 5 & echo parent done"],
                                                 deadline: .seconds(20))
        #expect(result.status == 0)
        #expect(!result.timedOut)
        #expect(result.stdoutLines == ["parent done"])
    }

    @Test("finds the built crates binary")
    func findsCrates() throws {
        let binary = try ProcessRunner.cratesBinary()
        #expect(FileManager.default.isExecutableFile(atPath: binary.path))
        #expect(binary.lastPathComponent == "crates")
    }
}
