import CratesLabels
import Testing

/// The layouts' numbers: built-in sheets against their published geometry, custom sheets
/// parsed from text, and names that are not layouts.
@Suite("Label layouts")
struct LabelSheetLayoutTests {
    static func sheet(_ layout: LabelSheetLayout) throws -> SheetGeometry {
        guard case let .sheet(geometry) = layout.form else {
            Issue.record("\(layout) is not a sheet")
            throw LabelError.nothingToPrint
        }
        return geometry
    }

    /// `value` (points) is `millimetres`, to a thousandth of a millimetre.
    static func expectMillimetres(_ value: Double, _ millimetres: Double, _ what: String,
                                  sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(abs(Points.toMillimetres(value) - millimetres) < 0.001, "\(what): \(Points.toMillimetres(value)) mm",
                sourceLocation: sourceLocation)
    }

    @Test("a4-3x7: A4, 63.5 × 38.1 mm labels, the L7160 grid")
    func a4() throws {
        let layout = try LabelSheetLayout.named("a4-3x7")
        #expect(layout == .a4L7160)
        let sheet = try Self.sheet(layout)
        #expect(abs(sheet.pageWidth - 595.2756) < 0.001)
        #expect(abs(sheet.pageHeight - 841.8898) < 0.001)
        #expect(sheet.columns == 3 && sheet.rows == 7 && sheet.positions == 21)
        // Position → cell, row by row: (column, row) at left + column × 66.04, top + row × 38.1.
        for position in 0..<21 {
            let cell = sheet.cell(at: position)
            Self.expectMillimetres(cell.x, 7.25 + Double(position % 3) * 66.04, "x of \(position)")
            Self.expectMillimetres(cell.y, 15.15 + Double(position / 3) * 38.1, "y of \(position)")
            Self.expectMillimetres(cell.width, 63.5, "width")
            Self.expectMillimetres(cell.height, 38.1, "height")
        }
        // Symmetric margins: 7.17 mm right (L7160's published 7.25 left is 0.08 mm wider), 15.15 bottom.
        let last = sheet.cell(at: 20)
        Self.expectMillimetres(sheet.pageWidth - last.maxX, 7.17, "right margin")
        Self.expectMillimetres(sheet.pageHeight - last.maxY, 15.15, "bottom margin")
    }

    @Test("letter-3x10: US Letter, 2.625 × 1 in labels, the 5160 grid")
    func letter() throws {
        let layout = try LabelSheetLayout.named("letter-3x10")
        #expect(layout == .letter5160)
        let sheet = try Self.sheet(layout)
        #expect(sheet.pageWidth == 612 && sheet.pageHeight == 792)
        #expect(sheet.positions == 30)
        for position in 0..<30 {
            let cell = sheet.cell(at: position)
            // In points: 72 a inch.
            #expect(abs(cell.x - (13.5 + Double(position % 3) * 198)) < 1e-9)
            #expect(abs(cell.y - (36 + Double(position / 3) * 72)) < 1e-9)
            #expect(cell.width == 189 && cell.height == 72)
        }
        let last = sheet.cell(at: 29)
        #expect(abs(612 - last.maxX - 13.5) < 1e-9)
        #expect(abs(792 - last.maxY - 36) < 1e-9)
    }

    @Test("rolls: roll-62 is 62 mm wide and continuous, roll-29x90 is a 90 × 29 mm page")
    func rolls() throws {
        let roll = try LabelSheetLayout.named("roll-62")
        guard case let .continuousRoll(width) = roll.form else { Issue.record("roll-62: \(roll.form)"); return }
        Self.expectMillimetres(width, 62, "roll width")
        #expect(!roll.isSheet && roll.labelsPerPage == 1)
        let dieCut = try LabelSheetLayout.named("roll-29x90")
        guard case let .dieCut(pageWidth, pageHeight) = dieCut.form else { Issue.record("\(dieCut.form)"); return }
        Self.expectMillimetres(pageWidth, 90, "landscape width")
        Self.expectMillimetres(pageHeight, 29, "landscape height")
    }

    @Test("names are matched without regard to case and surrounding spaces")
    func names() throws {
        #expect(try LabelSheetLayout.named(" A4-3X7 ") == .a4L7160)
        #expect(try LabelSheetLayout.named("Roll-62") == .roll62)
        #expect(LabelSheetLayout.knownNames.prefix(4) == ["a4-3x7", "letter-3x10", "roll-62", "roll-29x90"])
    }

    @Test("an unknown layout is an error listing the known ones")
    func unknown() {
        #expect(throws: LabelError.unknownLayout("a5-2x4", known: LabelSheetLayout.knownNames)) {
            try LabelSheetLayout.named("a5-2x4")
        }
        let message = LabelError.unknownLayout("a5-2x4", known: LabelSheetLayout.knownNames).description
        for name in ["\"a5-2x4\"", "a4-3x7", "letter-3x10", "roll-62", "roll-29x90", "sheet:PAGE"] {
            #expect(message.contains(name), "\(message)")
        }
        // A name from a user never reaches the terminal raw.
        let escaped = LabelError.unknownLayout("a4\u{1B}[31m", known: []).description
        #expect(!escaped.contains("\u{1B}") && escaped.contains("\\u{1B}"))
    }

    @Test("custom sheet: page, grid, label, margins and gaps in mm")
    func customSheet() throws {
        let text = "sheet:210x297:3x8:label=63.5x33.9:margin=7.75,12.9:gap=2.5,0"
        let layout = try LabelSheetLayout.named(text)
        #expect(layout.name == text)
        #expect(text == LabelSheetLayout.customSheetExample)
        let sheet = try Self.sheet(layout)
        #expect(sheet.columns == 3 && sheet.rows == 8)
        Self.expectMillimetres(sheet.pageWidth, 210, "page width")
        Self.expectMillimetres(sheet.pageHeight, 297, "page height")
        let cell = sheet.cell(at: 4)  // column 1, row 1
        Self.expectMillimetres(cell.x, 7.75 + 63.5 + 2.5, "x")
        Self.expectMillimetres(cell.y, 12.9 + 33.9, "y")
        Self.expectMillimetres(cell.width, 63.5, "width")
        Self.expectMillimetres(cell.height, 33.9, "height")
    }

    @Test("custom sheet: short keys in any order (the brief's form), named pages, a centred grid by default")
    func customSheetForms() throws {
        let brief = try Self.sheet(LabelSheetLayout.named("sheet:210x297:m=10,10:gap=2,0:3x8:l=63.5x33.9"))
        Self.expectMillimetres(brief.cell(at: 1).x, 10 + 65.5, "x")
        Self.expectMillimetres(brief.cell(at: 3).y, 10 + 33.9, "y")

        let centred = try Self.sheet(LabelSheetLayout.named("sheet:a4:2x5:label=90x50:gap=10,5"))
        // 2 × 90 + 10 = 190 wide, 5 × 50 + 4 × 5 = 270 high, centred on 210 × 297.
        Self.expectMillimetres(centred.leftMargin, 10, "centred left")
        Self.expectMillimetres(centred.topMargin, 13.5, "centred top")
        Self.expectMillimetres(centred.rowPitch, 55, "row pitch")

        let letter = try Self.sheet(LabelSheetLayout.named("SHEET:Letter:1x1:L=200x250"))
        #expect(abs(letter.pageWidth - 612) < 1e-9 && abs(letter.pageHeight - 792) < 1e-9)
    }

    struct BadSheet: Sendable, CustomTestStringConvertible {
        let text: String
        let mentions: [String]
        var testDescription: String { text }
    }

    static let badSheets: [BadSheet] = [
        BadSheet(text: "sheet:", mentions: ["empty part"]),
        BadSheet(text: "sheet:210x297", mentions: ["grid is missing"]),
        BadSheet(text: "sheet:210x297:3x8", mentions: ["label size is missing", "label=WIDTHxHEIGHT"]),
        BadSheet(text: "sheet:label=63.5x33.9", mentions: ["page size is missing"]),
        BadSheet(text: "sheet:210x297:3x8:label=63.5", mentions: ["\"63.5\" in label=", "two lengths"]),
        BadSheet(text: "sheet:210x297:3x8:label=63.5xabc", mentions: ["\"63.5xabc\""]),
        BadSheet(text: "sheet:210x297:3x8:label=6e1x30", mentions: ["\"6e1x30\""]),
        BadSheet(text: "sheet:210x297:3x8:label=-5x30", mentions: ["\"-5x30\""]),
        BadSheet(text: "sheet:210x297:3x8:label=nanx30", mentions: ["\"nanx30\""]),
        BadSheet(text: "sheet:210x297:3.5x8:label=60x30", mentions: ["\"3.5x8\" is not a grid", "whole numbers"]),
        BadSheet(text: "sheet:210x297:0x8:label=60x30", mentions: ["\"0x8\" is not a grid"]),
        BadSheet(text: "sheet:210x297:3x8:label=60x30:label=60x30", mentions: ["label= is given twice"]),
        BadSheet(text: "sheet:210x297:3x8:label=60x30:colour=red", mentions: ["\"colour=\" is not a setting"]),
        BadSheet(text: "sheet:210x297:3x8:label=60x30:4x4", mentions: ["\"4x4\" is one part too many"]),
        BadSheet(text: "sheet:210x297:3x8:label=60x30:margin=10", mentions: ["\"10\" in margin="]),
        BadSheet(text: "sheet:210x297:3x8:label=0x30", mentions: ["label width must be more than 0"]),
        BadSheet(text: "sheet:210x297:4x8:label=63.5x33.9",
                 mentions: ["4 columns of 63.5 mm with 0 mm gaps are 254 mm wide", "the page's 210 mm"]),
        BadSheet(text: "sheet:a4:1x9:label=60x33.9:gap=0,1", mentions: ["9 rows of 33.9 mm with 1 mm gaps are 313.1 mm high"]),
        BadSheet(text: "sheet:210x297:3x8:label=63.5x33.9:margin=10,30",
                 mentions: ["8 rows end at 301.2 mm", "page's height of 297 mm"]),
        BadSheet(text: "sheet:210x297:3x8:label=63.5x33.9:margin=0,0:gap=1,-1", mentions: ["\"1,-1\" in gap="]),
        BadSheet(text: "sheet:210x297:3x8:label=63.5x33.9:m=20,0",
                 mentions: ["3 columns end at 210.5 mm, past the page's width of 210 mm"]),
        BadSheet(text: "sheet:210x297:100x100:label=1x1", mentions: ["more than 1000"]),
        BadSheet(text: "sheet:210x297::3x8:label=60x30", mentions: ["empty part"]),
        // Two lengths, too large: the limit, never "not two lengths".
        BadSheet(text: "sheet:100000x100000:1x1:label=60x30", mentions: ["100000 mm in the page size is too large", "at most 10000 mm"]),
        BadSheet(text: "sheet:a4:1x1:label=60x20000", mentions: ["20000 mm in label= is too large"]),
    ]

    @Test("bad custom sheets: a clear reason and the form to use", arguments: badSheets)
    func badCustomSheet(_ bad: BadSheet) {
        do {
            let layout = try LabelSheetLayout.named(bad.text)
            Issue.record("parsed as \(layout.form)")
        } catch {
            guard case let .badCustomSheet(text, _) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(text == bad.text)
            let message = error.description
            for mention in bad.mentions + ["sheet:PAGE:COLUMNSxROWS:label=WxH", "e.g. sheet:210x297"] {
                #expect(message.contains(mention), "\(message)")
            }
        }
    }
}
