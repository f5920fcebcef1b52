import CratesCore
import CratesTestSupport
import Foundation
import Testing

@testable import CratesCovers

/// The renderer over real encoders' files (Tests/Fixtures/covers, made by its
/// make-fixtures.py): 64 × 64 images whose left half is red and right half blue, in every
/// JPEG and PNG variant, and files that must give no art.
@Suite struct CoverRendererTests {
    static func fixture(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: packageRoot + "/Tests/Fixtures/covers/" + name)))
    }

    /// The colour a cell shows most: its background for a space, its foreground for a full
    /// block, and the mean of the two for any other symbol.
    static func shown(_ cell: CoverArt.Cell) -> (red: Int, green: Int, blue: Int) {
        switch cell.symbol {
        case " ": return (Int(cell.background.red), Int(cell.background.green), Int(cell.background.blue))
        case "█": return (Int(cell.foreground.red), Int(cell.foreground.green), Int(cell.foreground.blue))
        default:
            return (
                (Int(cell.foreground.red) + Int(cell.background.red)) / 2,
                (Int(cell.foreground.green) + Int(cell.background.green)) / 2,
                (Int(cell.foreground.blue) + Int(cell.background.blue)) / 2
            )
        }
    }

    static func isRed(_ c: (red: Int, green: Int, blue: Int)) -> Bool { c.red > 150 && c.green < 90 && c.blue < 90 }
    static func isBlue(_ c: (red: Int, green: Int, blue: Int)) -> Bool { c.blue > 150 && c.red < 90 && c.green < 90 }

    /// Every cell of the left 40 % red-ish, every cell of the right 40 % blue-ish (the middle
    /// fifth, where the halves meet, is the drawing's to blend).
    static func expectRedLeftBlueRight(_ art: CoverArt, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let columns = art.columns
        for (y, row) in art.rows.enumerated() {
            for (x, cell) in row.enumerated() {
                let colour = shown(cell)
                if x < columns * 2 / 5 {
                    #expect(isRed(colour), "\(name): cell \(x),\(y) is \(colour), not red", sourceLocation: sourceLocation)
                } else if x >= columns - columns * 2 / 5 {
                    #expect(isBlue(colour), "\(name): cell \(x),\(y) is \(colour), not blue", sourceLocation: sourceLocation)
                }
            }
        }
    }

    static let redBlue = [
        "red-blue.jpg", "red-blue-progressive.jpg", "red-blue-cmyk.jpg", "red-blue.png", "red-blue-palette.png",
        "red-blue-16bit.png", "red-blue-interlaced.png",
    ]

    @Test("every JPEG and PNG variant: red on the left, blue on the right, 40 × 20 cells in 40 × 40", arguments: redBlue)
    func redLeftBlueRight(name: String) throws {
        let art = try #require(CoverRenderer().render(try Self.fixture(name), columns: 40, rows: 40, colours: .direct))
        #expect(art.columns == 40)
        #expect(art.rows.count == 20)
        #expect(art.rows.allSatisfy { $0.count == 40 })
        Self.expectRedLeftBlueRight(art, name)
    }

    @Test("the palettes: 240 and 16 colours still red on the left, blue on the right", arguments: [CoverColours.palette256, .sixteen])
    func palettes(colours: CoverColours) throws {
        let art = try #require(CoverRenderer().render(try Self.fixture("red-blue.jpg"), columns: 24, rows: 12, colours: colours))
        #expect(art.columns == 24)
        #expect(art.rows.count == 12)
        Self.expectRedLeftBlueRight(art, "red-blue.jpg in \(colours)")
    }

    @Test("the art keeps the image's aspect (a cell twice as tall as wide) and fits the box")
    func aspect() throws {
        let renderer = CoverRenderer()
        // 128 × 32: as wide as the box, a quarter as tall in pixels, an eighth in cells.
        let wide = try #require(renderer.render(try Self.fixture("wide.png"), columns: 40, rows: 40, colours: .direct))
        #expect(wide.columns == 40)
        #expect(wide.rows.count == 5)
        Self.expectRedLeftBlueRight(wide, "wide.png")
        // 32 × 128: as tall as the box, a quarter as wide in pixels, half in cells.
        let tall = try #require(renderer.render(try Self.fixture("tall.jpg"), columns: 40, rows: 40, colours: .direct))
        #expect(tall.rows.count == 40)
        #expect(tall.columns == 20)
        Self.expectRedLeftBlueRight(tall, "tall.jpg")
        // A square in a wide, low box: the rows decide.
        let square = try #require(renderer.render(try Self.fixture("red-blue.png"), columns: 80, rows: 10, colours: .direct))
        #expect(square.rows.count == 10)
        #expect(square.columns == 20)
        for columns in [1, 2, 3, 7, 13] {
            for rows in [1, 2, 5, 9] {
                let art = try #require(renderer.render(try Self.fixture("red-blue.jpg"), columns: columns, rows: rows, colours: .direct))
                #expect(art.columns >= 1 && art.columns <= columns && art.rows.count >= 1 && art.rows.count <= rows, "\(columns)×\(rows)")
            }
        }
    }

    @Test("greyscale with alpha and greyscale JPEG: the darker half on the left")
    func grey() throws {
        for name in ["grey-alpha.png", "grey.jpg"] {
            let art = try #require(CoverRenderer().render(try Self.fixture(name), columns: 20, rows: 10, colours: .direct))
            for row in art.rows {
                let left = Self.shown(row[1])
                let right = Self.shown(row[row.count - 2])
                #expect(left.red < 70 && left.red == left.green && left.green == left.blue, "\(name): left \(left)")
                // grey-alpha.png's right half is 220 at half opacity: flattened onto black.
                #expect(right.red > 90 && right.red == right.green && right.green == right.blue, "\(name): right \(right)")
            }
        }
    }

    @Test("a 1 × 1 image fills the box it is given, in its colour")
    func onePixel() throws {
        let art = try #require(CoverRenderer().render(try Self.fixture("one-pixel.png"), columns: 10, rows: 10, colours: .direct))
        #expect(art.columns == 10)
        #expect(art.rows.count == 5)
        #expect(art.rows.joined().allSatisfy { Self.isRed(Self.shown($0)) })
    }

    @Test(
        "no art for what is not a whole JPEG or PNG of a sane size",
        arguments: ["truncated.jpg", "corrupt.png", "red-blue.webp", "huge.png", "huge.jpg", "make-fixtures.py"])
    func unreadable(name: String) throws {
        #expect(CoverRenderer().render(try Self.fixture(name), columns: 40, rows: 40, colours: .direct) == nil)
    }

    @Test("no art for empty bytes, a bare signature, or a box of no cells")
    func degenerate() throws {
        let renderer = CoverRenderer()
        #expect(renderer.render([], columns: 40, rows: 40, colours: .direct) == nil)
        #expect(renderer.render([0xFF, 0xD8, 0xFF], columns: 40, rows: 40, colours: .direct) == nil)
        #expect(renderer.render([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], columns: 40, rows: 40, colours: .direct) == nil)
        let jpeg = try Self.fixture("red-blue.jpg")
        #expect(renderer.render(jpeg, columns: 0, rows: 10, colours: .direct) == nil)
        #expect(renderer.render(jpeg, columns: 10, rows: 0, colours: .direct) == nil)
        #expect(renderer.render(jpeg, columns: -3, rows: -3, colours: .direct) == nil)
    }

    @Test("every shorter prefix of a JPEG gives no art; a PNG's, until its image data is whole")
    func prefixes() throws {
        let renderer = CoverRenderer()
        let jpeg = try Self.fixture("red-blue.jpg")
        for length in 0..<jpeg.count {
            #expect(renderer.render(Array(jpeg[..<length]), columns: 8, rows: 4, colours: .direct) == nil, "JPEG cut at \(length)")
        }
        let png = try Self.fixture("red-blue.png")
        let iend = png.count - 12
        for length in 0..<iend {
            #expect(renderer.render(Array(png[..<length]), columns: 8, rows: 4, colours: .direct) == nil, "PNG cut at \(length)")
        }
    }

    @Test("damaged bytes never end the process: art of the box's size or none")
    func damaged() throws {
        var generator = SeededGenerator(seed: 21)
        let renderer = CoverRenderer()
        for name in ["red-blue.jpg", "red-blue-progressive.jpg", "red-blue.png", "red-blue-interlaced.png", "red-blue-palette.png"] {
            let original = try Self.fixture(name)
            for _ in 0..<150 {
                var bytes = original
                for _ in 0..<Int.random(in: 1...6, using: &generator) {
                    // The signature is kept, so that the decoder (not the sniffing) meets the damage.
                    let index = Int.random(in: 8..<bytes.count, using: &generator)
                    bytes[index] = UInt8.random(in: 0...255, using: &generator)
                }
                if let art = renderer.render(bytes, columns: 16, rows: 8, colours: .direct) {
                    #expect(art.columns <= 16 && art.rows.count <= 8 && art.rows.allSatisfy { $0.count == art.columns })
                }
            }
        }
    }

    @Test("many renders at once, from many tasks, each the same as one alone")
    func concurrent() async throws {
        let names = Self.redBlue + ["truncated.jpg", "corrupt.png"]
        let images = try names.map { try Self.fixture($0) }
        let renderer = CoverRenderer()
        let alone = images.map { renderer.render($0, columns: 30, rows: 15, colours: .palette256) }
        let together = await withTaskGroup(of: (Int, CoverArt?).self) { group in
            for _ in 0..<4 {
                for (index, image) in images.enumerated() {
                    group.addTask { (index, renderer.render(image, columns: 30, rows: 15, colours: .palette256)) }
                }
            }
            var results: [(Int, CoverArt?)] = []
            for await result in group { results.append(result) }
            return results
        }
        #expect(together.count == images.count * 4)
        for (index, art) in together { #expect(art == alone[index], "\(names[index])") }
    }

    @Test("sniffing: JPEG's FF D8 FF and PNG's signature, nothing else")
    func sniffing() throws {
        #expect(CoverImageFormat(sniffing: try Self.fixture("red-blue.jpg")) == .jpeg)
        #expect(CoverImageFormat(sniffing: try Self.fixture("red-blue.png")) == .png)
        #expect(CoverImageFormat(sniffing: try Self.fixture("red-blue.webp")) == nil)
        #expect(CoverImageFormat(sniffing: [0xFF, 0xD8]) == nil)
        #expect(CoverImageFormat(sniffing: Array("GIF89a".utf8)) == nil)
    }
}
