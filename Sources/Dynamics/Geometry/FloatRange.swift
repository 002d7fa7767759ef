import Foundation

/// A range of values: UIKit's `UIFloatRange`, used by attachments' ``AttachmentBehavior/attachmentRange``.
///
/// It is `ClosedRange<CGFloat>`, so the UIKit spelling and the Swift one are the same value:
/// `FloatRange(minimum: -50, maximum: 50)` is `-50...50`, and `.infinite` (unlimited) is
/// `-.infinity ... .infinity`.
public typealias FloatRange = ClosedRange<CGFloat>

extension ClosedRange where Bound == CGFloat {
    /// Creates the range `minimum ... maximum`: UIKit's `UIFloatRange(minimum:maximum:)`.
    ///
    /// A Swift range cannot run backwards or hold NaN, so a `minimum` above `maximum`, or a NaN
    /// bound, gives ``invalid`` instead of trapping; an attachment given it reports a diagnostic
    /// and keeps its range.
    ///
    /// - Parameters:
    ///   - minimum: The lower bound (points or radians, as the property says).
    ///   - maximum: The upper bound.
    public init(minimum: CGFloat, maximum: CGFloat) {
        if minimum <= maximum {
            self = minimum...maximum
        } else {
            self = Self.invalid
        }
    }

    /// The lower bound: UIKit's `minimum`. Setting a value above ``maximum`` gives ``invalid``.
    public var minimum: CGFloat {
        get { lowerBound }
        set { self = Self(minimum: newValue, maximum: upperBound) }
    }

    /// The upper bound: UIKit's `maximum`. Setting a value below ``minimum`` gives ``invalid``.
    public var maximum: CGFloat {
        get { upperBound }
        set { self = Self(minimum: lowerBound, maximum: newValue) }
    }

    /// `0...0`: UIKit's `UIFloatRange.zero`.
    public static var zero: Self { 0...0 }

    /// `-.infinity ... .infinity`, no limit: UIKit's `UIFloatRange.infinite`.
    public static var infinite: Self { -CGFloat.infinity...CGFloat.infinity }

    /// Whether both bounds are infinite (no limit): UIKit's `isInfinite`.
    public var isInfinite: Bool { lowerBound == -.infinity && upperBound == .infinity }

    /// `+∞ ... +∞`, the stand-in for a reversed or NaN `UIFloatRange`, which no value lies in.
    /// Attachments refuse it with a diagnostic.
    public static var invalid: Self { CGFloat.infinity...CGFloat.infinity }
}
