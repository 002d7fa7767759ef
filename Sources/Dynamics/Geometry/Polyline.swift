import Foundation

/// One flattened subpath of a ``BezierPath``: straight segments joining `points`, in points.
///
/// Produced by `BezierPath.flattened(tolerance:)`. Guarantees, so consumers need not re-check:
/// - every point is finite;
/// - no two consecutive points are equal (exactly), and at least two points are present;
/// - when `isClosed` is true the last point does not repeat the first; the closing segment
///   from the last point back to the first is implied.
///
/// The winding is whatever the source path drew; use `PolygonTools.signedArea(_:)` to learn it.
struct Polyline: Sendable, Equatable {
    /// The vertices in drawing order, in points.
    var points: [CGPoint]
    /// Whether the subpath ended with `close()`; if so the segment `last → first` is implied.
    var isClosed: Bool
}
