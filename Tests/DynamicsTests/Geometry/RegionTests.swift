import Foundation
import Testing
@testable import Dynamics

@Suite struct RegionTests {
    // A = disc of radius 10; B = 30 × 4 bar. Sample points: in both, A only, B only, neither.
    private static let a = Region(radius: 10)
    private static let b = Region(size: CGSize(width: 30, height: 4))
    private static let both = CGPoint(x: 0, y: 0)
    private static let aOnly = CGPoint(x: 0, y: 8)
    private static let bOnly = CGPoint(x: 12, y: 0)
    private static let neither = CGPoint(x: 20, y: 20)

    private static func table(_ region: Region) -> [Bool] {
        [both, aOnly, bOnly, neither].map { region.contains($0) }
    }

    @Test func primitives() {
        #expect(Self.table(Self.a) == [true, true, false, false])
        #expect(Self.table(Self.b) == [true, false, true, false])
    }

    @Test func circleBoundaryIsInclusive() {
        let disc = Region(radius: 5)
        #expect(disc.contains(CGPoint(x: 5, y: 0)))
        #expect(disc.contains(CGPoint(x: 3, y: -4)))
        #expect(disc.contains(CGPoint(x: 0, y: -5)))
        #expect(!disc.contains(CGPoint(x: 5.000001, y: 0)))
        #expect(!disc.contains(CGPoint(x: 3.6, y: 3.6)))
        let point = Region(radius: 0)
        #expect(point.contains(.zero))
        #expect(!point.contains(CGPoint(x: 1e-9, y: 0)))
    }

    @Test func rectangleBoundaryIsStrict() {
        let rect = Region(size: CGSize(width: 10, height: 4))
        #expect(rect.contains(CGPoint(x: 4.999, y: -1.999)))
        #expect(!rect.contains(CGPoint(x: 5, y: 0)))
        #expect(!rect.contains(CGPoint(x: -5, y: 0)))
        #expect(!rect.contains(CGPoint(x: 0, y: 2)))
        #expect(!rect.contains(CGPoint(x: 0, y: -2)))
        #expect(!Region(size: CGSize(width: 0, height: 10)).contains(.zero))
    }

    @Test func algebraTruthTables() {
        let a = Self.a, b = Self.b
        #expect(Self.table(a.byUnion(with: b)) == [true, true, true, false])
        #expect(Self.table(a.byIntersection(with: b)) == [true, false, false, false])
        #expect(Self.table(a.byDifference(from: b)) == [false, true, false, false])
        #expect(Self.table(b.byDifference(from: a)) == [false, false, true, false])
        #expect(Self.table(a.inverse()) == [false, false, true, true])
        #expect(Self.table(a.byUnion(with: b).inverse()) == [false, false, false, true])
        // Symmetric difference, built from the primitives two ways.
        let xor1 = a.byUnion(with: b).byDifference(from: a.byIntersection(with: b))
        let xor2 = a.byDifference(from: b).byUnion(with: b.byDifference(from: a))
        #expect(Self.table(xor1) == [false, true, true, false])
        #expect(Self.table(xor2) == [false, true, true, false])
        // De Morgan.
        #expect(Self.table(a.inverse().byIntersection(with: b.inverse())) == Self.table(a.byUnion(with: b).inverse()))
    }

    @Test func infiniteAndEmpty() {
        let far = CGPoint(x: 1e300, y: -1e300)
        #expect(Region.infinite.contains(far))
        #expect(Region.infinite.contains(.zero))
        #expect(!Region.infinite.inverse().contains(.zero))
        #expect(!Region.infinite.inverse().contains(far))
        #expect(Region.infinite.inverse() == .empty)
        #expect(Region.empty.inverse() == .infinite)
        #expect(Self.a.byUnion(with: .infinite) == .infinite)
        #expect(Self.a.byUnion(with: .empty) == Self.a)
        #expect(Self.a.byIntersection(with: .infinite) == Self.a)
        #expect(Self.a.byIntersection(with: .empty) == .empty)
        #expect(Self.a.byDifference(from: .infinite) == .empty)
        #expect(Self.a.byDifference(from: .empty) == Self.a)
        #expect(Region.infinite.byDifference(from: Self.a) == Self.a.inverse())
        #expect(Self.table(Region.infinite.byDifference(from: Self.a)) == [false, false, true, true])
    }

    @Test func doubleInverseIsIdentity() {
        let region = Self.a.byUnion(with: Self.b)
        #expect(region.inverse().inverse() == region)
        #expect(region.inverse() != region)
    }

    @Test func badSizesGiveEmptyRegionsAndInfiniteOnesGrow() {
        #expect(Region(radius: -1) == .empty)
        #expect(Region(radius: .nan) == .empty)
        #expect(Region(radius: -.infinity) == .empty)
        #expect(Region(radius: .infinity) == .infinite)
        #expect(Region(size: CGSize(width: -1, height: 5)) == .empty)
        #expect(Region(size: CGSize(width: CGFloat.nan, height: 5)) == .empty)
        #expect(Region(size: CGSize(width: CGFloat.infinity, height: CGFloat.infinity)) == .infinite)
        let band = Region(size: CGSize(width: CGFloat.infinity, height: 2))
        #expect(band.contains(CGPoint(x: 1e12, y: 0.5)))
        #expect(!band.contains(CGPoint(x: 0, y: 1)))
    }

    @Test func nonFinitePointsAreNeverContained() {
        for point in [CGPoint(x: CGFloat.nan, y: 0), CGPoint(x: 0, y: CGFloat.infinity)] {
            #expect(!Region.infinite.contains(point))
            #expect(!Self.a.inverse().contains(point))
        }
        #expect(!Self.a.contains(x: .nan, y: 0))
        #expect(Self.a.contains(x: 1, y: 1))
    }

    @Test func deepCompositionsEvaluateCorrectly() {
        // Right-nested: the operand stack grows with every level, past the 64-bit fast path.
        var rightNested = Region(radius: 1000)
        var leftNested = Region(radius: 1000)
        for i in 1...200 {
            let box = Region(size: CGSize(width: 2000 + CGFloat(i), height: 2000 + CGFloat(i)))
            rightNested = box.byIntersection(with: rightNested)
            leftNested = leftNested.byIntersection(with: box)
        }
        let samples = [CGPoint(x: 999, y: 0), CGPoint(x: 0, y: -999.9), CGPoint(x: 1000.5, y: 0),
                       CGPoint(x: 800, y: 800), CGPoint(x: 600, y: 600)]
        let expected = [true, true, false, false, true]
        #expect(samples.map(rightNested.contains) == expected)
        #expect(samples.map(leftNested.contains) == expected)
        // 5 000 left-nested unions: no recursion, so no stack overflow anywhere.
        var many = Region(radius: 1)
        for _ in 0..<5_000 { many = many.byUnion(with: Region(size: CGSize(width: 1, height: 1))) }
        #expect(many.contains(CGPoint(x: 0.9, y: 0)))
        #expect(!many.contains(CGPoint(x: 1.1, y: 0)))
        #expect(many != Region(radius: 1))
    }

    @Test func codableRoundTripAndValidation() throws {
        let region = Self.a.byDifference(from: Self.b).inverse()
        let data = try JSONEncoder().encode(region)
        let decoded = try JSONDecoder().decode(Region.self, from: data)
        #expect(decoded == region)
        #expect(Self.table(decoded) == [true, false, true, true])
        let malformed = #"{"program":[{"circle":{"radius":1}},{"union":{}}]}"#
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Region.self, from: Data(malformed.utf8))
        }
        let twoValues = #"{"program":[{"circle":{"radius":1}},{"everything":{}}]}"#
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Region.self, from: Data(twoValues.utf8))
        }
    }

    @Test func description() {
        let region = Region(radius: 5).byDifference(from: Region(size: CGSize(width: 20, height: 10)))
        #expect(region.description == "(circle(r: 5.0) − rect(20.0 × 10.0))")
        #expect(Region.infinite.inverse().description == "empty")
    }
}
