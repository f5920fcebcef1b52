import CratesCore

/// "EAN-13, United Kingdom": what the barcode parser knows of a GTIN.
enum BarcodeDescription {
    static func of(_ gtin: GTIN) -> String {
        "\(gtin.kind), \(gtin.classification)"
    }
}
