import CratesTestSupport
import Foundation
import Testing

/// Every command says what it does, with an example; `crates --version` prints the version.
@Suite("crates --help and --version (process)", .processTimeLimit)
struct HelpTests {
    @Test("crates --help: an abstract, examples, and a list of subcommands")
    func rootHelp() async throws {
        let result = try await ProcessRunner.crates(["--help"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("OVERVIEW: ") && result.stdout.contains("Examples:"), "\(result)")
        #expect(try Self.subcommands(of: result.stdout).count >= 16, "\(result)")
    }

    @Test("--help on every subcommand the root help lists: an abstract and examples of that command")
    func subcommandHelp() async throws {
        let root = try await ProcessRunner.crates(["--help"])
        for name in try Self.subcommands(of: root.stdout) {
            let result = try await ProcessRunner.crates([name, "--help"])
            #expect(result.status == 0, "\(name): \(result)")
            #expect(result.stdout.contains("OVERVIEW: "), "\(name): \(result)")
            #expect(result.stdout.contains("Examples:"), "\(name): \(result)")
            #expect(result.stdout.components(separatedBy: "\n").contains { $0.hasPrefix("  crates \(name)") }, "\(name): \(result)")
        }
    }

    /// The names in the help's SUBCOMMANDS section: each entry's first line starts with two
    /// spaces and the name, in lower case (its abstract's further lines are indented deeper;
    /// the closing "See 'crates help …'" is capitalised).
    static func subcommands(of help: String) throws -> [String] {
        let lines = help.components(separatedBy: "\n")
        let start = try #require(lines.firstIndex(of: "SUBCOMMANDS:"), "no SUBCOMMANDS section: \(help)")
        return lines[(start + 1)...].compactMap { line -> String? in
            guard line.hasPrefix("  "), let first = line.dropFirst(2).first, first.isLowercase else { return nil }
            return String(line.dropFirst(2).prefix { $0.isLetter || $0 == "-" })
        }
    }

    @Test("crates help COMMAND is the same as crates COMMAND --help")
    func helpCommand() async throws {
        let viaHelp = try await ProcessRunner.crates(["help", "export"])
        let viaFlag = try await ProcessRunner.crates(["export", "--help"])
        #expect(viaHelp.status == 0 && viaFlag.status == 0, "\(viaHelp)\n\(viaFlag)")
        #expect(viaHelp.stdout == viaFlag.stdout)
    }

    @Test("--version prints the version")
    func version() async throws {
        let result = try await ProcessRunner.crates(["--version"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "0.1.0\n")
    }
}
