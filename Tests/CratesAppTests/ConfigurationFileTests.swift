import CratesCore
import CratesTestSupport
import Foundation
import Testing

@testable import CratesApp

/// config.json in process, in a real file of a temporary directory: what is read, what a
/// change leaves of a hand-edited file, and what is refused. `crates config`'s own tests keep
/// its wording and exit statuses.
@Suite("Configuration file: read, set, reset, refuse")
struct ConfigurationFileTests {
    struct Place {
        let directory: TemporaryDirectory
        var file: ConfigurationFile { ConfigurationFile(path: directory.file("crates/config.json")) }

        init() throws {
            directory = try TemporaryDirectory()
        }

        func write(_ text: String, mode: mode_t = 0o600) throws {
            try FileManager.default.createDirectory(atPath: directory.file("crates"), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: URL(fileURLWithPath: file.path))
            chmod(file.path, mode)
        }

        func text() throws -> String { try String(contentsOfFile: file.path, encoding: .utf8) }
    }

    @Test("no file: every key at its default; the directory comes from XDG_CONFIG_HOME")
    func noFile() throws {
        let place = try Place()
        let preferences = place.file.load()
        #expect(preferences.problems.isEmpty && preferences.covers && preferences.coverCacheMB == 500 && preferences.currency == nil)
        let named = try ConfigurationFile(environment: ["XDG_CONFIG_HOME": place.directory.path])
        #expect(named.path == place.file.path)
    }

    @Test("set creates the file; a second set and a reset keep the person's order, spacing and unknown members")
    func setKeepsTheRest() throws {
        let place = try Place()
        try place.file.set(.currency, to: "eur")
        #expect(place.file.load().currency == "EUR")
        let edited = "{\n  \"mine\": [1, 2],   \"currency\": \"EUR\",\n  \"covers\": true\n}\n"
        try place.write(edited)
        try place.file.set(.covers, to: "off")
        #expect(try place.text() == edited.replacingOccurrences(of: "\"covers\": true", with: "\"covers\": false"))
        try place.file.reset(.currency)
        let left = try place.text()
        #expect(left.contains("\"mine\": [1, 2]") && !left.contains("currency") && left.contains("\"covers\": false"), "\(left)")
        #expect(place.file.load().currency == nil && !place.file.load().covers)
    }

    @Test("a value a key does not take is refused, the file unchanged; a bad value in the file is a problem, the default stands")
    func refusedValues() throws {
        let place = try Place()
        try place.write(#"{"covers.cacheMB": -3, "sort": "added"}"#)
        #expect(throws: ConfigurationError.self) { try place.file.set(.coverCacheMB, to: "lots") }
        #expect(try place.text() == #"{"covers.cacheMB": -3, "sort": "added"}"#)
        let preferences = place.file.load()
        #expect(preferences.coverCacheMB == 500 && preferences.problem(with: .coverCacheMB) != nil, "\(preferences.problems)")
        #expect(ConfigurationFile.startupWarnings(preferences).count == preferences.problems.count)
    }

    @Test("a file that is not JSON, or not an object: said with its place; set refuses to touch it")
    func notJSON() throws {
        let place = try Place()
        try place.write("{\"covers\": false,}\n")
        let problems = place.file.load().problems.map(\.description)
        #expect(problems.count == 1 && problems[0].contains("is not valid JSON") && problems[0].contains("line 1"), "\(problems)")
        #expect(throws: ConfigurationError.self) { try place.file.set(.covers, to: "on") }
        #expect(try place.text() == "{\"covers\": false,}\n")
        try place.write("[1]")
        #expect(place.file.load().problems.first?.description.contains("must hold a JSON object") == true)
    }

    @Test("a file every user may write, or a byte order mark: the first is not read, the second is kept")
    func modeAndMark() throws {
        let place = try Place()
        try place.write(#"{"covers": false}"#, mode: 0o666)
        let preferences = place.file.load()
        #expect(preferences.covers && preferences.problems.first?.description.contains("chmod o-w") == true, "\(preferences.problems)")
        try place.write("\u{FEFF}{\"covers\": false}")
        #expect(!place.file.load().covers)
        try place.file.set(.sort, to: "added")
        // Read as bytes: Foundation's UTF-8 reading drops a byte order mark.
        let bytes = try Data(contentsOf: URL(fileURLWithPath: place.file.path))
        #expect(Array(bytes.prefix(4)) == [0xEF, 0xBB, 0xBF, UInt8(ascii: "{")], "the mark kept")
        #expect(place.file.load().sort == .added)
    }
}
