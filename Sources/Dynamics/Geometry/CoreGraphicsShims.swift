import Foundation

// Foundation supplies CGFloat, CGPoint, CGSize and CGRect everywhere, but CGVector and
// CGAffineTransform live in CoreGraphics, which exists only on Apple platforms. Elsewhere we
// supply look-alikes with Apple's names, members, conventions and Codable format, so code (and
// snapshots) written against UIKit Dynamics compile and decode unchanged on every platform.
#if !canImport(CoreGraphics)

// MARK: - CGVector

/// A two-dimensional vector, the CoreGraphics `CGVector` for platforms without CoreGraphics.
///
/// Components are in points (or points per second, or force units, depending on where the vector is
/// used). y grows downward, as everywhere in this module, so `CGVector(dx: 0, dy: 1)` points down
/// the screen. Encodes as the two-element array `[dx, dy]`, like Apple's `CGVector`.
public struct CGVector: Sendable, Hashable {
    /// The x component, in points. Default 0.
    public var dx: CGFloat
    /// The y component, in points; positive is down the screen. Default 0.
    public var dy: CGFloat

    /// Creates the zero vector `(0, 0)`, like Apple's imported C initializer.
    public init() {
        dx = 0
        dy = 0
    }

    /// Creates a vector from its x and y components, in points.
    public init(dx: CGFloat, dy: CGFloat) {
        self.dx = dx
        self.dy = dy
    }

    /// Creates a vector from its x and y components, in points.
    public init(dx: Double, dy: Double) {
        self.dx = CGFloat(dx)
        self.dy = CGFloat(dy)
    }

    /// Creates a vector from integral x and y components, in points.
    public init(dx: Int, dy: Int) {
        self.dx = CGFloat(dx)
        self.dy = CGFloat(dy)
    }

    /// The vector whose components are both 0.
    public static var zero: CGVector { CGVector(dx: 0, dy: 0) }
}

extension CGVector: Codable {
    /// Decodes the unkeyed pair `[dx, dy]`, Apple's format.
    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        dx = try container.decode(CGFloat.self)
        dy = try container.decode(CGFloat.self)
    }

    /// Encodes the unkeyed pair `[dx, dy]`, Apple's format.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        try container.encode(dx)
        try container.encode(dy)
    }
}

// MARK: - CGAffineTransform

/// A 2-D affine transform, the CoreGraphics `CGAffineTransform` for platforms without CoreGraphics.
///
/// The matrix and its conventions are Apple's: a point is a row vector `[x y 1]` multiplied on the
/// right by
/// ```
/// | a  b  0 |
/// | c  d  0 |
/// | tx ty 1 |
/// ```
/// so `x' = a·x + c·y + tx` and `y' = b·x + d·y + ty`. Translations are in points, angles in
/// radians turning from +x toward +y (clockwise on a y-down screen). `t1.concatenating(t2)` applies
/// `t1` first, then `t2`. Encodes as the six-element array `[a, b, c, d, tx, ty]`, like Apple's.
public struct CGAffineTransform: Sendable, Equatable {
    /// The matrix entry that scales x into x'. Identity: 1.
    public var a: CGFloat
    /// The matrix entry that carries x into y'. Identity: 0.
    public var b: CGFloat
    /// The matrix entry that carries y into x'. Identity: 0.
    public var c: CGFloat
    /// The matrix entry that scales y into y'. Identity: 1.
    public var d: CGFloat
    /// The translation along x, in points. Identity: 0.
    public var tx: CGFloat
    /// The translation along y, in points (positive is down). Identity: 0.
    public var ty: CGFloat

    /// Creates the all-zero matrix, like Apple's imported C initializer. This is *not* the
    /// identity; use ``identity`` for that.
    public init() {
        a = 0
        b = 0
        c = 0
        d = 0
        tx = 0
        ty = 0
    }

    /// Creates a transform from its six matrix entries (translations in points).
    public init(a: CGFloat, b: CGFloat, c: CGFloat, d: CGFloat, tx: CGFloat, ty: CGFloat) {
        self.a = a
        self.b = b
        self.c = c
        self.d = d
        self.tx = tx
        self.ty = ty
    }

    /// The identity transform: `a = d = 1`, everything else 0.
    public static var identity: CGAffineTransform {
        CGAffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)
    }

    /// Creates a rotation by `angle` radians about the origin, turning +x toward +y
    /// (clockwise on a y-down screen): `a = cos, b = sin, c = −sin, d = cos`.
    public init(rotationAngle angle: CGFloat) {
        let cosine = CGFloat(Foundation.cos(Double(angle)))
        let sine = CGFloat(Foundation.sin(Double(angle)))
        self.init(a: cosine, b: sine, c: -sine, d: cosine, tx: 0, ty: 0)
    }

    /// Creates a translation by `tx`, `ty` points.
    public init(translationX tx: CGFloat, y ty: CGFloat) {
        self.init(a: 1, b: 0, c: 0, d: 1, tx: tx, ty: ty)
    }

    /// Creates a scale by the factors `sx` along x and `sy` along y (unitless).
    public init(scaleX sx: CGFloat, y sy: CGFloat) {
        self.init(a: sx, b: 0, c: 0, d: sy, tx: 0, ty: 0)
    }

    /// Whether this is exactly the identity transform.
    public var isIdentity: Bool { self == .identity }

    /// Returns the transform that applies `self` first and then `t2` (the matrix product
    /// `self × t2`), like Apple's `CGAffineTransformConcat(self, t2)`.
    public func concatenating(_ t2: CGAffineTransform) -> CGAffineTransform {
        let t1 = self
        return CGAffineTransform(
            a: t1.a * t2.a + t1.b * t2.c,
            b: t1.a * t2.b + t1.b * t2.d,
            c: t1.c * t2.a + t1.d * t2.c,
            d: t1.c * t2.b + t1.d * t2.d,
            tx: t1.tx * t2.a + t1.ty * t2.c + t2.tx,
            ty: t1.tx * t2.b + t1.ty * t2.d + t2.ty
        )
    }

    /// Returns this transform with a rotation by `angle` radians applied *before* it,
    /// i.e. `CGAffineTransform(rotationAngle: angle).concatenating(self)`, like Apple's
    /// `CGAffineTransformRotate`.
    public func rotated(by angle: CGFloat) -> CGAffineTransform {
        CGAffineTransform(rotationAngle: angle).concatenating(self)
    }

    /// Returns this transform with a translation by `tx`, `ty` points applied *before* it,
    /// i.e. `CGAffineTransform(translationX: tx, y: ty).concatenating(self)`, like Apple's
    /// `CGAffineTransformTranslate`.
    public func translatedBy(x tx: CGFloat, y ty: CGFloat) -> CGAffineTransform {
        CGAffineTransform(translationX: tx, y: ty).concatenating(self)
    }

    /// Returns this transform with a scale by `sx`, `sy` applied *before* it,
    /// i.e. `CGAffineTransform(scaleX: sx, y: sy).concatenating(self)`, like Apple's
    /// `CGAffineTransformScale`.
    public func scaledBy(x sx: CGFloat, y sy: CGFloat) -> CGAffineTransform {
        CGAffineTransform(scaleX: sx, y: sy).concatenating(self)
    }

    /// Returns the inverse transform, so that `t.concatenating(t.inverted())` is the identity.
    /// A singular transform (determinant `a·d − b·c` of 0, or not finite) is returned unchanged,
    /// as Apple's `CGAffineTransformInvert` does.
    public func inverted() -> CGAffineTransform {
        let determinant = a * d - b * c
        guard determinant != 0, determinant.isFinite else { return self }
        return CGAffineTransform(
            a: d / determinant,
            b: -b / determinant,
            c: -c / determinant,
            d: a / determinant,
            tx: (c * ty - d * tx) / determinant,
            ty: (b * tx - a * ty) / determinant
        )
    }
}

extension CGAffineTransform: Codable {
    /// Decodes the unkeyed array `[a, b, c, d, tx, ty]`, Apple's format.
    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        a = try container.decode(CGFloat.self)
        b = try container.decode(CGFloat.self)
        c = try container.decode(CGFloat.self)
        d = try container.decode(CGFloat.self)
        tx = try container.decode(CGFloat.self)
        ty = try container.decode(CGFloat.self)
    }

    /// Encodes the unkeyed array `[a, b, c, d, tx, ty]`, Apple's format.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        try container.encode(a)
        try container.encode(b)
        try container.encode(c)
        try container.encode(d)
        try container.encode(tx)
        try container.encode(ty)
    }
}

// MARK: - Applying transforms

extension CGPoint {
    /// Returns the point transformed by `t`: `(a·x + c·y + tx, b·x + d·y + ty)`, in points.
    public func applying(_ t: CGAffineTransform) -> CGPoint {
        CGPoint(x: t.a * x + t.c * y + t.tx, y: t.b * x + t.d * y + t.ty)
    }
}

extension CGSize {
    /// Returns the size transformed by `t` as a vector, ignoring the translation:
    /// `(a·w + c·h, b·w + d·h)`, in points. The result may be negative, as with Apple's.
    public func applying(_ t: CGAffineTransform) -> CGSize {
        CGSize(width: t.a * width + t.c * height, height: t.b * width + t.d * height)
    }
}

extension CGRect {
    /// Returns the smallest rectangle containing the four transformed corners of this
    /// (standardized) rectangle, in points. The null rectangle stays null.
    public func applying(_ t: CGAffineTransform) -> CGRect {
        guard !isNull else { return self }
        let corners = [
            CGPoint(x: minX, y: minY), CGPoint(x: maxX, y: minY),
            CGPoint(x: maxX, y: maxY), CGPoint(x: minX, y: maxY),
        ].map { $0.applying(t) }
        var lowX = corners[0].x, highX = corners[0].x
        var lowY = corners[0].y, highY = corners[0].y
        for corner in corners.dropFirst() {
            lowX = Swift.min(lowX, corner.x)
            highX = Swift.max(highX, corner.x)
            lowY = Swift.min(lowY, corner.y)
            highY = Swift.max(highY, corner.y)
        }
        return CGRect(x: lowX, y: lowY, width: highX - lowX, height: highY - lowY)
    }
}

#endif
