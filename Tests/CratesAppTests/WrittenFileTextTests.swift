import CratesCore
import Foundation
import Testing

@testable import CratesApp

/// What `crates export` and `crates backup` tell a person of the file they wrote: the count,
/// the form and the size when the file can be read, and a name with a control character
/// shown cleaned.
@Suite("WrittenFileText: the words for a file written")
struct WrittenFileTextTests {
    @Test("an export and a backup, with the file's size; a file gone, without")
    func words() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("crates-written-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("shelf.csv").path
        try Data(repeating: 65, count: 2048).write(to: URL(fileURLWithPath: path))
        let size = ProgressText.bytes(2048)
        #expect(WrittenFileText.export(1, to: path, csv: true) == "Wrote 1 record to \(path) (CSV, \(size))")
        #expect(WrittenFileText.backup(to: path) == "Wrote a backup of the collection to \(path) (\(size)): `crates --db \(path)` opens it")
        let gone = directory.appendingPathComponent("gone\u{1B}.json").path
        let shown = ControlCharacters.cleaned(gone)
        #expect(shown != gone)
        #expect(WrittenFileText.export(3, to: gone, csv: false) == "Wrote 3 records to \(shown) (JSON)")
    }
}
