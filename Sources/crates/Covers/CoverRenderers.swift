import CratesCore
import CratesCovers

/// The renderer covers are drawn with: CratesCovers' (libjpeg-turbo, libpng, chafa).
enum CoverRenderers {
    static let terminal: (any CoverRendering)? = CoverRenderer()
}
