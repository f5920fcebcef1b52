import CratesCore
import CratesLabels
import Foundation
import Testing

/// The PDF is written whole or not at all: a temporary file beside the target, renamed over it.
@Suite("Label PDF files")
struct LabelFileTests {
    static func leftovers(in directory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.contains(".partial-") }
    }

    @Test("an existing file is replaced by a whole PDF; no temporary file is left")
    func replaces() throws {
        let (directory, pdf) = try LabelFixtures.temporaryPDF()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("old".utf8).write(to: pdf)
        try LabelDocument.write(labels: LabelFixtures.locations(3), layout: .a4L7160, to: pdf.path)
        let bytes = try Data(contentsOf: pdf)
        #expect(bytes.starts(with: Data("%PDF-".utf8)))
        #expect(String(decoding: bytes.suffix(7), as: UTF8.self).contains("%%EOF"))
        #expect(try Self.leftovers(in: directory).isEmpty)
    }

    @Test("a failure leaves the file as it was: bad input, a missing directory, a directory in the way")
    func failures() throws {
        let (directory, pdf) = try LabelFixtures.temporaryPDF()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("old".utf8).write(to: pdf)
        let code = try #require(LabelCode(kind: .location, id: 1))
        let tooLong = Label(location: code, name: String(repeating: "Very long name ", count: 20), path: [])
        do {
            try LabelDocument.write(labels: [tooLong], layout: .a4L7160, to: pdf.path)
            Issue.record("a name longer than a label was written")
        } catch {
            guard case .nameTooLong = error else { Issue.record("\(error)"); return }
            #expect(error.description.hasPrefix("name longer than a label: \"Very long name Very long name"))
        }
        #expect(try Data(contentsOf: pdf) == Data("old".utf8))

        let missing = directory.appendingPathComponent("no/such/dir/labels.pdf").path
        let labels = try LabelFixtures.locations(1)
        do {
            try LabelDocument.write(labels: labels, layout: .roll62, to: missing)
            Issue.record("wrote into a missing directory")
        } catch {
            #expect(error == .cannotWrite(path: missing, reason: "No such file or directory"))
            #expect(error.description.contains("nothing was changed at \(missing)"))
        }
        do {
            try LabelDocument.write(labels: labels, layout: .roll62, to: directory.path)
            Issue.record("wrote over a directory")
        } catch {
            #expect(error == .cannotWrite(path: directory.path, reason: "it is a directory"))
        }
        #expect(try Self.leftovers(in: directory).isEmpty)
    }
}
