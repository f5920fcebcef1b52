import CratesCore
import CratesTestSupport
import Foundation
import Testing

/// Text from outside (Discogs' answers) never reaches the terminal with its control
/// characters, whatever command prints it: the rule holds where crates writes to standard
/// output and standard error, not in each command.
@Suite("Text from outside, as the commands print it (process)", .serialized, .processTimeLimit)
struct OutsideTextCommandTests {
    /// ESC[2J (clear the screen), OSC 52 (a clipboard write, ended by BEL), a C1 CSI
    /// (U+009B, which some terminals take as ESC[) and DEL, in each of Discogs' value texts.
    static let hostile = "\u{1B}[2J$1,597.46\u{1B}]52;c;aGVsbG8=\u{07}\u{9B}31m\u{7F}"

    /// The control characters in `text` other than line feed and tab (the lines' and
    /// columns' own).
    static func controls(_ text: String) -> [UInt32] {
        text.unicodeScalars.filter { ControlCharacters.isControl($0) && $0 != "\n" && $0 != "\t" }.map(\.value)
    }

    @Test("crates value: Discogs' collection-value texts with ESC, OSC 52, BEL, C1 CSI and DEL print none of them, as lines or --json (escaped there)")
    func collectionValueTexts() async throws {
        let (sandbox, server, _) = try await ValueCommandTests.signedIn()
        try await server.collectionValue(minimum: Self.hostile, median: Self.hostile, maximum: Self.hostile)
        let refreshed = try await sandbox.crates(["value", "--refresh"])
        #expect(refreshed.status == 0, "\(refreshed)")
        #expect(Self.controls(refreshed.stdout).isEmpty && Self.controls(refreshed.stderr).isEmpty, "\(refreshed)")
        #expect(refreshed.stdoutLines.contains { $0.hasPrefix("Collection: minimum [2J$1,597.46]52;c;aGVsbG8=31m, median ") },
                "the text stays, without its controls: \(refreshed)")

        for arguments in [["value"], ["value", "--history"]] {
            let shown = try await sandbox.crates(arguments)
            #expect(shown.status == 0, "\(arguments): \(shown)")
            #expect(Self.controls(shown.stdout).isEmpty && Self.controls(shown.stderr).isEmpty, "\(arguments): \(shown)")
        }
        // JSON keeps what Discogs wrote, every control escaped: no raw one, and the same
        // string once parsed.
        for arguments in [["value", "--json"], ["value", "--json", "--history"]] {
            let json = try await sandbox.crates(arguments)
            #expect(json.status == 0, "\(arguments): \(json)")
            #expect(Self.controls(json.stdout).isEmpty, "\(arguments): \(json)")
            let line = try #require(json.stdoutLines.first)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let collection = try #require(object["collection"] as? [String: Any])
            #expect((collection["text"] as? [String: String])?["minimum"] == Self.hostile, "\(arguments): \(json)")
        }
    }

    /// The executable's and the use cases' sources, by path and text.
    static func sources() throws -> [(path: String, text: String)] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        var found: [(String, String)] = []
        for folder in ["Sources/crates", "Sources/CratesApp"] {
            let base = root.appendingPathComponent(folder)
            let files = try #require(FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil))
            for case let url as URL in files where url.pathExtension == "swift" {
                found.append((folder + "/" + url.path.dropFirst(base.path.count + 1), try String(contentsOf: url, encoding: .utf8)))
            }
        }
        #expect(found.count > 50, "the sources were found: \(root.path)")
        return found
    }

    @Test("every print path of the executable goes through StandardStreams: no print(), no FileHandle.standardOutput or standardError, no write(2) to 1 or 2 elsewhere")
    func onePrintingLayer() throws {
        let printing = "Sources/crates/Output/StandardStreams.swift"
        let bypasses = [
            #"(?<![\w.])print\("#, #"FileHandle\.standard(Output|Error)"#, #"\bwrite\((STDOUT|STDERR)_FILENO"#,
            #"\bfputs\("#, #"\bputs\("#,
        ]
        for (path, text) in try Self.sources() where path != printing {
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = line.trimmingCharacters(in: .whitespaces)
                if code.hasPrefix("//") { continue }
                for pattern in bypasses where code.range(of: pattern, options: .regularExpression) != nil {
                    Issue.record("\(path):\(number + 1) prints around StandardStreams: \(code)")
                }
            }
        }
    }
}
