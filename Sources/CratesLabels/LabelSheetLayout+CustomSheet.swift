import Foundation

extension LabelSheetLayout {
    static let customSheetPrefix = "sheet:"

    /// The form of a custom sheet, for help texts and messages.
    public static let customSheetSyntax = "sheet:PAGE:COLUMNSxROWS:label=WxH[:margin=LEFT,TOP][:gap=ACROSS,DOWN]"

    /// A custom sheet that parses, for help texts and messages.
    public static let customSheetExample = "sheet:210x297:3x8:label=63.5x33.9:margin=7.75,12.9:gap=2.5,0"

    /// A custom sheet of labels, all lengths in millimetres:
    ///
    ///     sheet:PAGE:COLUMNSxROWS:label=WxH[:margin=LEFT,TOP][:gap=ACROSS,DOWN]
    ///
    /// - PAGE is `WIDTHxHEIGHT` (`210x297`) or `a4` or `letter`;
    /// - COLUMNSxROWS is the grid (`3x8`: 3 across, 8 down);
    /// - `label=` (or `l=`) is one label's size;
    /// - `margin=` (or `m=`) is where the first label's top left corner sits; without it the
    ///   grid is centred on the page;
    /// - `gap=` (or `g=`) is the space between columns and between rows (0 when omitted).
    ///
    /// The page comes before the grid; the `key=` parts may come anywhere after `sheet:`.
    /// Every number must be written plainly (`63.5`, not `6.35e1`), and the grid must fit
    /// the page.
    static func customSheet(_ text: String) throws(LabelError) -> LabelSheetLayout {
        func fail(_ reason: String) -> LabelError { .badCustomSheet(text, reason: reason) }

        var page: (Double, Double)?
        var grid: (Int, Int)?
        var label: (Double, Double)?
        var margin: (Double, Double)?
        var gap: (Double, Double)?
        let parts = text.dropFirst(customSheetPrefix.count).split(separator: ":", omittingEmptySubsequences: false)
        for rawPart in parts {
            let part = rawPart.trimmingCharacters(in: .whitespaces).lowercased()
            guard !part.isEmpty else { throw fail("an empty part (two \":\" in a row, or one at the end)") }
            if let equals = part.firstIndex(of: "=") {
                let key = String(part[..<equals])
                let value = String(part[part.index(after: equals)...])
                switch key {
                case "label", "l":
                    guard label == nil else { throw fail("label= is given twice") }
                    label = try pair(value, separator: "x", what: "label=", fail: fail)
                case "margin", "m":
                    guard margin == nil else { throw fail("margin= is given twice") }
                    margin = try pair(value, separator: ",", what: "margin=", fail: fail)
                case "gap", "g":
                    guard gap == nil else { throw fail("gap= is given twice") }
                    gap = try pair(value, separator: ",", what: "gap=", fail: fail)
                default:
                    throw fail("\"\(key)=\" is not a setting: use label=, margin= or gap=")
                }
            } else if page == nil {
                switch part {
                case "a4": page = (210, 297)
                case "letter": page = (215.9, 279.4)
                default: page = try pair(part, separator: "x", what: "the page size", fail: fail)
                }
            } else if grid == nil {
                let numbers = part.split(separator: "x", omittingEmptySubsequences: false)
                guard numbers.count == 2, let columns = wholeNumber(numbers[0]), let rows = wholeNumber(numbers[1]) else {
                    throw fail("\"\(rawPart)\" is not a grid: write COLUMNSxROWS in whole numbers, like 3x8")
                }
                grid = (columns, rows)
            } else {
                throw fail("\"\(rawPart)\" is one part too many: after the page and the grid, only label=, margin= and gap=")
            }
        }
        guard let page else { throw fail("the page size is missing (like 210x297, a4 or letter)") }
        guard let grid else { throw fail("the grid is missing (COLUMNSxROWS, like 3x8)") }
        guard let label else { throw fail("the label size is missing (label=WIDTHxHEIGHT, like label=63.5x33.9)") }
        let (columns, rows) = grid
        let (across, down) = gap ?? (0, 0)
        let gridWidth = Double(columns) * label.0 + Double(columns - 1) * across
        let gridHeight = Double(rows) * label.1 + Double(rows - 1) * down
        let mm = { (value: Double) in LabelMeasure.number(value) }
        guard gridWidth <= page.0 + 0.01 else {
            throw fail("\(columns) columns of \(mm(label.0)) mm with \(mm(across)) mm gaps are \(mm(gridWidth)) mm wide, "
                + "wider than the page's \(mm(page.0)) mm")
        }
        guard gridHeight <= page.1 + 0.01 else {
            throw fail("\(rows) rows of \(mm(label.1)) mm with \(mm(down)) mm gaps are \(mm(gridHeight)) mm high, "
                + "higher than the page's \(mm(page.1)) mm")
        }
        let (left, top) = margin ?? ((page.0 - gridWidth) / 2, (page.1 - gridHeight) / 2)
        do {
            let geometry = try SheetGeometry(
                pageWidth: Points.millimetres(page.0), pageHeight: Points.millimetres(page.1),
                labelWidth: Points.millimetres(label.0), labelHeight: Points.millimetres(label.1),
                leftMargin: Points.millimetres(left), topMargin: Points.millimetres(top),
                columnPitch: Points.millimetres(label.0 + across), rowPitch: Points.millimetres(label.1 + down),
                columns: columns, rows: rows)
            return LabelSheetLayout(name: text, form: .sheet(geometry))
        } catch {
            throw fail(error.description)
        }
    }

    /// Two plain decimal numbers of millimetres separated by `separator`.
    private static func pair(
        _ text: String, separator: Character, what: String, fail: (String) -> LabelError
    ) throws(LabelError) -> (Double, Double) {
        let numbers = text.split(separator: separator, omittingEmptySubsequences: false)
        let example = separator == "x" ? "63.5x33.9" : "7.75,12.9"
        guard numbers.count == 2, let first = number(numbers[0]), let second = number(numbers[1]) else {
            throw fail("\"\(text)\" in \(what) is not two lengths in mm separated by \"\(separator)\" (like \(example))")
        }
        // Two lengths, but beyond any sheet: said as such.
        for (typed, value) in zip(numbers, [first, second]) where value > maximumMillimetres {
            throw fail("\(typed) mm in \(what) is too large: a length is at most \(Int(maximumMillimetres)) mm (ten metres)")
        }
        return (first, second)
    }

    /// The longest length a sheet takes, in millimetres (ten metres is no sheet).
    static let maximumMillimetres: Double = 10_000

    /// A plain decimal number ("63.5", "0", "7."), of any size (`pair` says when it is too
    /// large).
    private static func number(_ text: Substring) -> Double? {
        let body = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard !text.isEmpty, text != ".", text.count <= 40, body.allSatisfy({ $0.allSatisfy(\.isASCIIDigitCharacter) }),
              let value = Double(text), value.isFinite
        else { return nil }
        return value
    }

    /// A whole number from 1 to 1000.
    private static func wholeNumber(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.count <= 4, text.allSatisfy(\.isASCIIDigitCharacter), let value = Int(text),
              value >= 1
        else { return nil }
        return value
    }
}

extension Character {
    /// 0-9 only: `isNumber` takes other scripts and fractions.
    var isASCIIDigitCharacter: Bool { isASCII && isWholeNumber }
}
