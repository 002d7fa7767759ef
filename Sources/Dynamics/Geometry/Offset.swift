import Foundation

/// An offset, in points: UIKit's `UIOffset`.
///
/// Offsets are `CGPoint`s everywhere in this API (push target offsets, attachment offsets), so
/// `Offset` is `CGPoint`, with UIKit's initialiser and field names as well:
/// `Offset(horizontal: 10, vertical: -5)` is `CGPoint(x: 10, y: -5)`, and `Offset.zero` is `.zero`.
public typealias Offset = CGPoint

extension CGPoint {
    /// Creates an offset of `horizontal` and `vertical` points: UIKit's `UIOffset(horizontal:vertical:)`.
    ///
    /// - Parameters:
    ///   - horizontal: The x offset, in points.
    ///   - vertical: The y offset, in points (y grows downward).
    public init(horizontal: CGFloat, vertical: CGFloat) {
        self.init(x: horizontal, y: vertical)
    }

    /// The x offset, in points: UIKit's `UIOffset.horizontal`.
    public var horizontal: CGFloat {
        get { x }
        set { x = newValue }
    }

    /// The y offset, in points: UIKit's `UIOffset.vertical`.
    public var vertical: CGFloat {
        get { y }
        set { y = newValue }
    }
}

/// UIKit's `UIOffsetMake(_:_:)`, from code written before `UIOffset(horizontal:vertical:)`.
///
/// - Parameters: The horizontal and vertical offsets, in points.
public func OffsetMake(_ horizontal: CGFloat, _ vertical: CGFloat) -> Offset {
    Offset(horizontal: horizontal, vertical: vertical)
}
