import CratesCore
import CratesLabels
import CratesTestSupport
import Testing

/// Layout without drawing: positions, pages, module scale, quiet zones, text fitting and bad
/// options, with a measurer of fixed advances.
@Suite("Label planner")
struct LabelPlannerTests {
    static func planner(_ layout: LabelSheetLayout, _ options: LabelOptions = LabelOptions()) -> LabelPlanner {
        LabelPlanner(layout: layout, options: options, measurer: FixedAdvanceMeasurer())
    }

    static func sheet(_ layout: LabelSheetLayout) throws -> SheetGeometry {
        try LabelSheetLayoutTests.sheet(layout)
    }

    /// What every placed label must satisfy: inside its cell with the quiet zones clear, bars
    /// on whole dots, text above the bars and inside the cell.
    static func expectWellFormed(_ label: PlacedLabel, bleed: Double = 0,
                                 sourceLocation: SourceLocation = #_sourceLocation) {
        let symbol = label.symbol
        let module = symbol.scale.module
        let bars = symbol.barsFrame
        let quiet = symbol.symbology.quietZones
        #expect(label.cell.contains(symbol.frame), "symbol \(symbol.frame) in \(label.cell)", sourceLocation: sourceLocation)
        let bleedPoints = Points.millimetres(bleed)
        #expect(bars.minX - bleedPoints / 2 - label.cell.minX >= Double(quiet.left) * module - 1e-6,
                "left quiet zone", sourceLocation: sourceLocation)
        #expect(label.cell.maxX - bars.maxX - bleedPoints / 2 >= Double(quiet.right) * module - 1e-6,
                "right quiet zone", sourceLocation: sourceLocation)
        if bleed == 0 {
            for bar in symbol.bars {
                let dots = (bar.minX / symbol.scale.dot, bar.maxX / symbol.scale.dot)
                #expect(abs(dots.0 - dots.0.rounded()) < 1e-6 && abs(dots.1 - dots.1.rounded()) < 1e-6,
                        "bar edges on whole dots: \(dots)", sourceLocation: sourceLocation)
            }
        }
        for text in label.texts {
            #expect(label.cell.contains(text.frame), "\(text.text) in the cell", sourceLocation: sourceLocation)
            #expect(text.frame.maxY <= bars.minY + 1e-6, "\(text.text) above the bars", sourceLocation: sourceLocation)
        }
        for digits in symbol.texts {
            #expect(digits.baseline > bars.minY && digits.frame.maxY <= label.cell.maxY + 1e-6,
                    "digits beneath the bars", sourceLocation: sourceLocation)
        }
    }

    @Test("sheets fill row by row, a new page when full: 50 labels on a4-3x7 are 21 + 21 + 8")
    func sheetPages() throws {
        let labels = try LabelFixtures.locations(50)
        let plan = try Self.planner(.a4L7160).plan(labels: labels)
        let sheet = try Self.sheet(.a4L7160)
        #expect(plan.pages.map(\.labels.count) == [21, 21, 8])
        #expect(plan.codes == labels.map(\.code))
        for page in plan.pages {
            #expect(page.width == sheet.pageWidth && page.height == sheet.pageHeight)
            for (index, label) in page.labels.enumerated() {
                #expect(label.position == index)
                #expect(label.cell == sheet.cell(at: index))
                Self.expectWellFormed(label)
                // 63.5 mm less 2 × 3 mm = 57.5 mm for 113 modules: 6 dots at 300 dpi (0.508 mm).
                #expect(label.symbol.scale == ModuleScale(dots: 6, dpi: 300))
            }
        }
    }

    @Test("skip N leaves the first N positions of the first sheet empty")
    func skip() throws {
        let labels = try LabelFixtures.locations(20)
        let plan = try Self.planner(.letter5160, LabelOptions(skip: 25)).plan(labels: labels)
        #expect(plan.pages.count == 2)
        #expect(plan.pages[0].labels.compactMap(\.position) == Array(25..<30))
        #expect(plan.pages[1].labels.compactMap(\.position) == Array(0..<15))
        let sheet = try Self.sheet(.letter5160)
        for label in plan.pages.flatMap(\.labels) {
            #expect(label.cell == sheet.cell(at: label.position ?? -1))
            Self.expectWellFormed(label)
        }
        #expect(plan.codes == labels.map(\.code))
    }

    @Test("letter-3x10 and the rolls pick their module: 6, 5 and 7 dots at 300 dpi; 3 dots at 203 dpi")
    func moduleScales() throws {
        let label = try LabelFixtures.location(7)
        let scale = { (layout: LabelSheetLayout, dpi: Int) in
            try Self.planner(layout, LabelOptions(dpi: dpi)).plan(labels: [label]).pages[0].labels[0].symbol.scale
        }
        #expect(try scale(.letter5160, 300).dots == 6)
        #expect(try scale(.roll62, 300).dots == 5)
        // 84 mm would fit 8 dots (0.677 mm), over GS1's 0.66 mm maximum.
        #expect(try scale(.roll29x90, 300).dots == 7)
        #expect(try scale(.roll62, 203).dots == 3)
        let plan = try Self.planner(.roll62, LabelOptions(dpi: 203)).plan(labels: [label])
        Self.expectWellFormed(plan.pages[0].labels[0])
    }

    @Test("roll-62: 62 mm wide pages whose length follows from the content, in whole dots; nominal bar height")
    func continuousRoll() throws {
        let labels = try LabelFixtures.locations(3) + [LabelFixtures.copy(9)]
        let plan = try Self.planner(.roll62).plan(labels: labels)
        #expect(plan.pages.count == 4)
        for page in plan.pages {
            #expect(abs(Points.toMillimetres(page.width) - 62) < 1e-9)
            let label = try #require(page.labels.first)
            #expect(page.labels.count == 1 && label.position == nil)
            Self.expectWellFormed(label)
            // GS1's nominal height at this module: 22.85 / 0.33 = 69.24 modules.
            #expect(abs(label.symbol.barHeight - 22.85 / 0.33) < 1e-4)  // libzint keeps a Float
            // The cut: the content plus the insets, rounded up to whole dots.
            let dots = page.height / Points.dot(dpi: 300)
            #expect(abs(dots - dots.rounded()) < 1e-6)
            let slack = page.height - (label.symbol.frame.maxY + LabelStyle.verticalInset)
            #expect(slack >= -1e-6 && slack <= 1.5 * Points.dot(dpi: 300) + 1e-6, "\(slack)")
            #expect(label.cell == LabelRect(x: 0, y: 0, width: page.width, height: page.height))
        }
    }

    @Test("roll-29x90: one 90 × 29 mm page a label, bars as tall as the label allows")
    func dieCut() throws {
        let plan = try Self.planner(.roll29x90).plan(labels: LabelFixtures.locations(3))
        #expect(plan.pages.count == 3)
        for page in plan.pages {
            #expect(abs(Points.toMillimetres(page.width) - 90) < 1e-9 && abs(Points.toMillimetres(page.height) - 29) < 1e-9)
            let label = try #require(page.labels.first)
            Self.expectWellFormed(label)
            #expect(label.symbol.barHeight < 22.85 / 0.33)
            #expect(label.symbol.frame.maxY <= page.height - LabelStyle.verticalInset + 1e-6)
        }
    }

    @Test("bleed thins every bar by the same amount about its centre")
    func bleed() throws {
        let labels = try LabelFixtures.locations(4)
        let plain = try Self.planner(.a4L7160).plan(labels: labels)
        let thinned = try Self.planner(.a4L7160, LabelOptions(bleed: 0.08)).plan(labels: labels)
        let bleed = Points.millimetres(0.08)
        for (a, b) in zip(plain.pages[0].labels, thinned.pages[0].labels) {
            #expect(a.symbol.bars.count == b.symbol.bars.count)
            for (bar, thin) in zip(a.symbol.bars, b.symbol.bars) {
                #expect(abs(bar.width - thin.width - bleed) < 1e-9)
                #expect(abs(bar.midX - thin.midX) < 1e-9)
                #expect(bar.y == thin.y && bar.height == thin.height)
            }
            Self.expectWellFormed(b, bleed: 0.08)
        }
    }

    @Test("a name shrinks to fit; below 6 pt it is cut with …, as a copy's title is, and the plan says so")
    func longNames() throws {
        let code = try #require(LabelCode(kind: .location, id: 3))
        // 57.5 mm = 163 pt; at 0.7 em a character, 30 characters fit at 7.75 pt.
        let medium = Label(location: code, name: String(repeating: "M", count: 30), path: [])
        let title = try #require(try Self.planner(.a4L7160).plan(labels: [medium]).pages[0].labels[0].texts.first)
        #expect(title.text == medium.title)
        #expect(title.size < LabelStyle.maximumTitleSize && title.size >= LabelStyle.minimumTitleSize)
        #expect(title.width <= Points.millimetres(57.5))

        // Too long even at 6 pt: cut with "…" as a copy's title is (one rule), and the plan
        // says which label was cut.
        let long = Label(location: code, name: String(repeating: "M", count: 60), path: [])
        let plan = try Self.planner(.a4L7160).plan(labels: [medium, long])
        let cut = try #require(plan.pages[0].labels[1].texts.first)
        #expect(cut.text.hasSuffix("…") && cut.size == LabelStyle.minimumTitleSize)
        #expect(cut.width <= Points.millimetres(57.5))
        #expect(plan.cut.map(\.cutFrom) == [long.title])
        #expect(plan.cut.map(\.code) == [long.code])
        #expect(plan.pages[0].labels[0].cutFrom == nil)
    }

    @Test("a copy's long title is shortened with …; a long path gives way from its outermost place")
    func shortening() throws {
        let code = try #require(LabelCode(kind: .copy, id: 12))
        let copy = Label(copy: code, title: String(repeating: "Long title ", count: 10), path: [])
        let title = try #require(try Self.planner(.a4L7160).plan(labels: [copy]).pages[0].labels[0].texts.first)
        #expect(title.text.hasSuffix("…") && title.size == LabelStyle.minimumTitleSize)
        #expect(title.width <= Points.millimetres(57.5))

        let place = try #require(LabelCode(kind: .location, id: 12))
        let deep = Label(location: place, name: "Crate 1", path: ["The Big House", "Living Room", "North Wall",
                                                                    "Shelving Unit 2", "Shelf 4"])
        let texts = try Self.planner(.a4L7160).plan(labels: [deep]).pages[0].labels[0].texts
        let path = try #require(texts.last)
        #expect(path.text.hasPrefix("… › ") && path.text.hasSuffix("Shelving Unit 2 › Shelf 4"), "\(path.text)")
        #expect(path.width <= Points.millimetres(57.5))

        // Control characters in names never reach the PDF.
        let dirty = Label(location: place, name: "Crate\u{1B}[31m\tB", path: ["Room\u{7}"])
        let clean = try Self.planner(.a4L7160).plan(labels: [dirty]).pages[0].labels[0].texts.map(\.text)
        #expect(clean == ["Crate[31m B", "Room"])
    }

    @Test("bad options: a clear message each")
    func badOptions() throws {
        let labels = try LabelFixtures.locations(2)
        let cases: [(LabelSheetLayout, LabelOptions, String)] = [
            (.roll62, LabelOptions(skip: 1), "skip 1: roll-62 prints one label per page"),
            (.roll29x90, LabelOptions(skip: 2), "skip is for sheets"),
            (.a4L7160, LabelOptions(skip: 21), "a sheet of a4-3x7 has 21 positions, so at most 20 can be skipped"),
            (.a4L7160, LabelOptions(skip: -1), "skip -1"),
            (.a4L7160, LabelOptions(bleed: -0.1), "bleed -0.1 mm"),
            (.a4L7160, LabelOptions(bleed: .nan), "bleed nan mm"),
            // A module of 6 dots at 300 dpi is 0.508 mm: the bleed must be under 0.254 mm.
            (.a4L7160, LabelOptions(bleed: 0.3), "bleed 0.3 mm is half a module or more: the module here is 6 dots at 300 dpi (0.508 mm)"),
            (.a4L7160, LabelOptions(dpi: 50), "dpi 50 is out of range"),
        ]
        for (layout, options, message) in cases {
            do {
                _ = try Self.planner(layout, options).plan(labels: labels)
                Issue.record("accepted \(options) on \(layout)")
            } catch {
                guard case .badOption = error else {
                    Issue.record("\(error)")
                    continue
                }
                #expect(error.description.contains(message), "\(error)")
            }
        }
        #expect(throws: LabelError.nothingToPrint) { try Self.planner(.a4L7160).plan(labels: []) }
    }

    @Test("a label too small for a readable EAN-13 says why")
    func tooSmall() throws {
        let label = try LabelFixtures.location(1)
        let narrow = try LabelSheetLayout.named("sheet:a4:4x10:label=40x25")
        do {
            _ = try Self.planner(narrow).plan(labels: [label])
            Issue.record("a 40 mm label took an EAN-13")
        } catch {
            guard case .labelTooSmall = error else { Issue.record("\(error)"); return }
            #expect(error.description.contains("113 modules wide: 38.3 mm at the smallest module of whole dots, "
                + "4 dots at 300 dpi (0.339 mm) (GS1's minimum is 0.264 mm)"), "\(error)")
            #expect(error.description.contains("the label leaves 34 mm"), "\(error)")
        }
        let low = try LabelSheetLayout.named("sheet:a4:3x20:label=63.5x14")
        do {
            _ = try Self.planner(low).plan(labels: [label])
            Issue.record("a 14 mm high label took an EAN-13 and two lines")
        } catch {
            guard case .labelTooSmall = error else { Issue.record("\(error)"); return }
            #expect(error.description.contains("mm for the bars, less than the 6 mm a scanner needs"), "\(error)")
        }
    }
}
