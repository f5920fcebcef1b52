import CZint

extension BarcodeSymbol {
    /// The symbol for `data` from libzint's vector output (`ZBarcode_Buffer_Vector`):
    /// rectangles and strings, read into modules.
    ///
    /// EAN-13 takes 13 digits and libzint checks the check digit (`BARCODE_EANX_CHK`); its
    /// default quiet zones (11 and 7 modules) are part of the symbol, and its digits come as
    /// strings placed beneath the bars. QR adds its 4-module quiet zone
    /// (`BARCODE_QUIET_ZONES`). `barHeight` (modules) applies to EAN-13 only.
    public static func encode(
        _ data: String, symbology: Label.Symbology, barHeight: Double = 50
    ) throws(LabelError) -> BarcodeSymbol {
        guard let symbol = ZBarcode_Create() else {
            throw .barcode(data: data, reason: "libzint could not allocate a symbol")
        }
        defer { ZBarcode_Delete(symbol) }
        switch symbology {
        case .ean13:
            guard data.utf8.count == 13, data.allSatisfy(\.isASCIIDigitCharacter) else {
                throw .barcode(data: data, reason: "an EAN-13 holds 13 digits")
            }
            symbol.pointee.symbology = BARCODE_EANX_CHK
            symbol.pointee.height = Float(barHeight)
            symbol.pointee.show_hrt = 1
        case .qr:
            symbol.pointee.symbology = BARCODE_QRCODE
            symbol.pointee.output_options = BARCODE_QUIET_ZONES
            symbol.pointee.show_hrt = 0
        }
        symbol.pointee.scale = 1
        let bytes = Array(data.utf8)
        let status = ZBarcode_Encode_and_Buffer_Vector(symbol, bytes, Int32(bytes.count), 0)
        guard status < ZINT_ERROR, let vector = symbol.pointee.vector else {
            let reason = withUnsafeBytes(of: symbol.pointee.errtxt) { buffer in
                String(decoding: buffer.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            throw .barcode(data: data, reason: "libzint: \(reason.isEmpty ? "error \(status)" : reason)")
        }
        // libzint's vector unit is half a module at scale 1 (a module is 2 × scale units).
        let unit = 2 * Double(symbol.pointee.scale)
        var bars: [Bar] = []
        var rectangle = vector.pointee.rectangles
        while let current = rectangle {
            let r = current.pointee
            // -1 is the foreground; libzint draws no light rectangles for EAN-13 or QR.
            if r.colour == -1 {
                bars.append(Bar(
                    x: Double(r.x) / unit, y: Double(r.y) / unit, width: Double(r.width) / unit,
                    height: Double(r.height) / unit))
            }
            rectangle = r.next
        }
        var texts: [Text] = []
        var string = vector.pointee.strings
        while let current = string {
            let s = current.pointee
            let text = s.text.map { String(decoding: UnsafeBufferPointer(start: $0, count: Int(s.length)), as: UTF8.self) }
            if let text, !text.isEmpty {
                let alignment: Alignment = switch s.halign {
                case 1: .left
                case 2: .right
                default: .centre
                }
                texts.append(Text(
                    text: text, x: Double(s.x) / unit, baseline: Double(s.y) / unit, size: Double(s.fsize) / unit,
                    width: Double(s.width) / unit, alignment: alignment))
            }
            string = s.next
        }
        return BarcodeSymbol(
            symbology: symbology, data: data, width: Double(vector.pointee.width) / unit,
            height: Double(vector.pointee.height) / unit,
            barHeight: symbology == .ean13 ? Double(symbol.pointee.height) : Double(vector.pointee.height) / unit,
            bars: bars, texts: texts)
    }
}
