import CratesCore
import CratesLabels
import CratesTestSupport
import Foundation
import Testing

/// A measurer with fixed advances, so that planner tests know every width: 0.6 em a
/// character in the regular font, 0.7 em in bold.
struct FixedAdvanceMeasurer: TextMeasuring {
    func width(of text: String, font: LabelFont, size: Double) -> Double {
        Double(text.count) * size * (font == .bold ? 0.7 : 0.6)
    }
}

/// Labels for places and copies with predictable codes and names.
enum LabelFixtures {
    /// A location label for `id`, named "Crate A<id>" inside "Living Room › Shelf <id % 5>".
    static func location(_ id: Int) throws -> Label {
        let code = try #require(LabelCode(kind: .location, id: id))
        return Label(location: code, name: "Crate A\(id)", path: ["Living Room", "Shelf \(id % 5)"])
    }

    /// `count` location labels with ids from `first`.
    static func locations(_ count: Int, from first: Int = 1) throws -> [Label] {
        try (first..<(first + count)).map(location)
    }

    /// A copy label for record `id`.
    static func copy(_ id: Int) throws -> Label {
        let code = try #require(LabelCode(kind: .copy, id: id))
        return Label(copy: code, title: "Artist \(id) — Title \(id)", path: ["LP", "1977"])
    }

    /// zbarimg's line for a label's code.
    static func decoded(_ label: Label) -> String { "EAN-13:\(label.code.canonical)" }

    static func mm(_ points: Double) -> Double { Points.toMillimetres(points) }

    /// A temporary PDF path in a fresh directory (removed when the directory goes).
    static func temporaryPDF() throws -> (directory: TemporaryDirectory, pdf: URL) {
        let directory = try TemporaryDirectory(prefix: "crates-labels")
        return (directory, directory.url.appendingPathComponent("labels.pdf"))
    }

    /// Lays the labels out and writes the PDF to `url`; returns the plan (what was drawn
    /// where). The command writes through `ExportFile`; a test needs the bytes only.
    @discardableResult
    static func write(
        labels: [Label], contents: [LabelContents] = [], layout: LabelSheetLayout,
        options: LabelOptions = LabelOptions(), to path: String
    ) throws -> LabelDocumentPlan {
        let document = try LabelDocument(labels: labels, contents: contents, layout: layout, options: options)
        try Data(document.pdf()).write(to: URL(fileURLWithPath: path))
        return document.plan
    }
}
