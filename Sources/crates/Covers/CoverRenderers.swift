import CratesCore

/// The renderer covers are drawn with (CratesCovers' chafa renderer once it is here).
enum CoverRenderers {
    static let terminal: (any CoverRendering)? = nil
}
