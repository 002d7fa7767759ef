import Foundation

/// A direction vector kept together with its angle and magnitude, as gravity and push expose
/// them: setting one updates the others.
///
/// The vector is the truth when set directly (so `(0, 2)` reads back exactly); the angle is kept
/// separately so that it survives a zero magnitude (UIKit: setting `angle` while the magnitude is 0
/// remembers it for the next non-zero magnitude). Setting the magnitude to 0 zeroes the vector and
/// the angle, as UIKit documents. A negative magnitude reverses the vector; the angle then reads
/// the reversed direction.
struct PolarVector {
    private(set) var vector: CGVector
    private(set) var angle: CGFloat

    init(_ vector: CGVector) {
        self.vector = vector
        self.angle = vector.dx == 0 && vector.dy == 0 ? 0 : vector.angle
    }

    /// A vector with an angle kept as is (a snapshot's restore).
    init(vector: CGVector, angle: CGFloat) {
        self.vector = vector
        self.angle = angle
    }

    var magnitude: CGFloat { vector.magnitude }

    mutating func setVector(_ v: CGVector) {
        self = PolarVector(v)
    }

    mutating func setAngle(_ a: CGFloat) {
        let m = magnitude
        angle = a
        if m != 0 { vector = CGVector(angle: a, magnitude: m) }
    }

    mutating func setMagnitude(_ m: CGFloat) {
        if m == 0 {
            vector = .zero
            angle = 0
            return
        }
        vector = CGVector(angle: angle, magnitude: m)
        if m < 0 { angle = vector.angle }
    }

    mutating func set(angle a: CGFloat, magnitude m: CGFloat) {
        angle = a
        if m == 0 {
            vector = .zero
            return
        }
        vector = CGVector(angle: a, magnitude: m)
        if m < 0 { angle = vector.angle }
    }
}
