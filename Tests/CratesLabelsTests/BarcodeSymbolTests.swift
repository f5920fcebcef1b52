import CratesCore
import CratesLabels
import Testing

/// libzint's vector output read into modules, and the whole-dot module scale.
@Suite("Barcode symbols and module scale")
struct BarcodeSymbolTests {
    @Test("EAN-13 from libzint: 113 modules with quiet zones, 95 of bars from module 11, 30 bars, the digits")
    func ean13() throws {
        let symbol = try BarcodeSymbol.encode("2900000000179", symbology: .ean13, barHeight: 40)
        #expect(symbol.width == 113)
        #expect(symbol.barsExtent == 11...106)
        #expect(symbol.bars.count == 30)
        #expect(symbol.barHeight == 40)
        // Every bar edge is a whole module: whole printer dots once scaled.
        for bar in symbol.bars {
            #expect(bar.x == bar.x.rounded() && bar.width == bar.width.rounded(), "\(bar)")
            #expect(bar.width >= 1 && bar.width <= 4)
        }
        // Guard bars descend below the others.
        #expect(Set(symbol.bars.map(\.height)) == [40, 45])
        #expect(symbol.texts.map(\.text) == ["2", "900000", "000179"])
        #expect(symbol.texts.allSatisfy { $0.baseline > 40 && $0.baseline <= symbol.height })
        #expect(symbol.textDepth > 5 && symbol.textDepth < 10)
    }

    @Test("libzint checks the check digit and the length")
    func refused() {
        #expect(throws: LabelError.self) { try BarcodeSymbol.encode("2900000000173", symbology: .ean13) }
        do {
            _ = try BarcodeSymbol.encode("2900000000173", symbology: .ean13)
        } catch {
            #expect(error.description.contains("libzint"), "\(error)")
            #expect(error.description.contains("check digit"), "\(error)")
        }
        #expect(throws: LabelError.barcode(data: "12345", reason: "an EAN-13 holds 13 digits")) {
            try BarcodeSymbol.encode("12345", symbology: .ean13)
        }
    }

    @Test("QR: a square with its 4-module quiet zone")
    func qr() throws {
        let symbol = try BarcodeSymbol.encode("2900000000179", symbology: .qr)
        #expect(symbol.width == symbol.height)
        #expect(symbol.width == 21 + 8)
        #expect(symbol.barsExtent == 4...25)
        #expect(symbol.texts.isEmpty)
    }

    @Test("module scale: the largest whole number of dots that fits, within GS1's 80%–200%")
    func moduleScale() throws {
        let range = Label.Symbology.ean13.moduleRange
        // 62 mm roll less 2 × 3 mm: 56 mm / 113 modules = 0.4956 mm = 5.85 dots at 300 dpi → 5.
        let roll = try #require(ModuleScale.largest(
            modules: 113, fitting: Points.millimetres(56), dpi: 300, range: range))
        #expect(roll.dots == 5)
        #expect(abs(roll.millimetres - 5 * 25.4 / 300) < 1e-12)
        // 84 mm would allow 8 dots (0.677 mm), more than GS1's 0.66 mm: 7.
        #expect(ModuleScale.largest(modules: 113, fitting: Points.millimetres(84), dpi: 300, range: range)?.dots == 7)
        // At 203 dpi a dot is 0.125 mm: 56 mm → 3 dots (0.375 mm).
        #expect(ModuleScale.largest(modules: 113, fitting: Points.millimetres(56), dpi: 203, range: range)?.dots == 3)
        // Exactly 113 × 6 dots fits 6 dots.
        let exact = Points.dot(dpi: 300) * 113 * 6
        #expect(ModuleScale.largest(modules: 113, fitting: exact, dpi: 300, range: range)?.dots == 6)
        #expect(ModuleScale.largest(modules: 113, fitting: exact - 0.01, dpi: 300, range: range)?.dots == 5)
        // 3 dots at 300 dpi is 0.254 mm, under GS1's 0.264 mm: too narrow for an EAN-13.
        #expect(ModuleScale.largest(modules: 113, fitting: Points.millimetres(37), dpi: 300, range: range) == nil)
        #expect(ModuleScale.largest(modules: 113, fitting: Points.millimetres(39), dpi: 300, range: range)?.dots == 4)
    }

    @Test("snapping to the dot grid moves a point at most half a dot")
    func snapping() {
        let scale = ModuleScale(dots: 5, dpi: 300)
        for step in 0..<2000 {
            let x = Double(step) * 0.3917
            let snapped = scale.snapped(x)
            #expect(abs(snapped - x) <= scale.dot / 2 + 1e-9)
            let dots = snapped / scale.dot
            #expect(abs(dots - dots.rounded()) < 1e-6)
        }
    }
}
