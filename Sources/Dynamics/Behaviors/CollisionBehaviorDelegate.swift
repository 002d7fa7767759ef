import Foundation

/// Hears a collision behaviour's contacts begin and end: UIKit's `UICollisionBehaviorDelegate`.
///
/// Write the methods exactly as in UIKit, minus the `UI` prefix: the boundary methods take UIKit's
/// `(any NSCopying)?` identifier (`NSCopying?` in UIKit code). Each boundary method also has a
/// Swift spelling with an `AnyHashable?` identifier; implement one spelling per method, not both
/// (the animator calls the `NSCopying` one, whose default forwards to the `AnyHashable` one).
///
/// Every method is optional, as in UIKit. A method you leave out is reported once, as a
/// ``DynamicsDiagnostic/Severity-swift.enum/note``, the first time a contact would have called
/// it: a method written with another signature (a different label or parameter type) satisfies
/// nothing, and the note is how you find out.
///
/// The methods are called after a step, every *began* before every *ended*; changes you make in
/// them take effect at the end of the step. Points are in the animator's coordinate space, in
/// points. The reference-bounds boundary reports the identifier `nil`.
///
/// A view controller or other `@MainActor` class conforms with an isolated conformance
/// (`extension GameViewController: @MainActor CollisionBehaviorDelegate`), and sets itself as the
/// delegate of a collision behaviour whose animator it drives on the main actor.
public protocol CollisionBehaviorDelegate: AnyObject {
    /// Two items of `behavior` started touching at `p` (points).
    func collisionBehavior(_ behavior: CollisionBehavior, beganContactFor item1: any DynamicItem,
                           with item2: any DynamicItem, at p: CGPoint)
    /// Two items of `behavior` stopped touching.
    func collisionBehavior(_ behavior: CollisionBehavior, endedContactFor item1: any DynamicItem,
                           with item2: any DynamicItem)
    /// An item of `behavior` started touching the boundary `identifier` at `p` (points, on the
    /// boundary): UIKit's signature. `identifier` is the object given to
    /// ``CollisionBehavior/addBoundary(withIdentifier:for:)-(NSCopying,_)`` (a string added
    /// through the `AnyHashable` spelling arrives as an `NSString`, a number as an `NSNumber`),
    /// or `nil` for the reference-bounds boundary. The default calls the `AnyHashable?` spelling.
    func collisionBehavior(_ behavior: CollisionBehavior, beganContactFor item: any DynamicItem,
                           withBoundaryIdentifier identifier: (any NSCopying)?, at p: CGPoint)
    /// An item of `behavior` stopped touching the boundary `identifier` (`nil`: the reference
    /// bounds): UIKit's signature. The default calls the `AnyHashable?` spelling.
    func collisionBehavior(_ behavior: CollisionBehavior, endedContactFor item: any DynamicItem,
                           withBoundaryIdentifier identifier: (any NSCopying)?)
    /// The Swift spelling of the *began* boundary method: `identifier` is the boundary's
    /// `AnyHashable` identifier (an `NSString` identifier arrives as a `String`), `nil` for the
    /// reference bounds.
    func collisionBehavior(_ behavior: CollisionBehavior, beganContactFor item: any DynamicItem,
                           withBoundaryIdentifier identifier: AnyHashable?, at p: CGPoint)
    /// The Swift spelling of the *ended* boundary method.
    func collisionBehavior(_ behavior: CollisionBehavior, endedContactFor item: any DynamicItem,
                           withBoundaryIdentifier identifier: AnyHashable?)
}

extension CollisionBehaviorDelegate {
    /// Not implemented: reports a note once per delegate type.
    public func collisionBehavior(_ behavior: CollisionBehavior, beganContactFor item1: any DynamicItem,
                                  with item2: any DynamicItem, at p: CGPoint) {
        behavior.noteUnimplemented(self, "collisionBehavior(_:beganContactFor:with:at:)", contacts: "item–item contacts")
    }
    /// Not implemented: reports a note once per delegate type.
    public func collisionBehavior(_ behavior: CollisionBehavior, endedContactFor item1: any DynamicItem,
                                  with item2: any DynamicItem) {
        behavior.noteUnimplemented(self, "collisionBehavior(_:endedContactFor:with:)", contacts: "item–item contacts ending")
    }
    /// Calls the `AnyHashable?` spelling with the identifier as a hashable key.
    public func collisionBehavior(_ behavior: CollisionBehavior, beganContactFor item: any DynamicItem,
                                  withBoundaryIdentifier identifier: (any NSCopying)?, at p: CGPoint) {
        collisionBehavior(behavior, beganContactFor: item, withBoundaryIdentifier: identifier.map(BoundaryIdentifier.key), at: p)
    }
    /// Calls the `AnyHashable?` spelling with the identifier as a hashable key.
    public func collisionBehavior(_ behavior: CollisionBehavior, endedContactFor item: any DynamicItem,
                                  withBoundaryIdentifier identifier: (any NSCopying)?) {
        collisionBehavior(behavior, endedContactFor: item, withBoundaryIdentifier: identifier.map(BoundaryIdentifier.key))
    }
    /// Neither spelling implemented: reports a note once per delegate type.
    public func collisionBehavior(_ behavior: CollisionBehavior, beganContactFor item: any DynamicItem,
                                  withBoundaryIdentifier identifier: AnyHashable?, at p: CGPoint) {
        behavior.noteUnimplemented(self, "collisionBehavior(_:beganContactFor:withBoundaryIdentifier:at:)",
                                   eitherSpelling: true, contacts: "boundary contacts")
    }
    /// Neither spelling implemented: reports a note once per delegate type.
    public func collisionBehavior(_ behavior: CollisionBehavior, endedContactFor item: any DynamicItem,
                                  withBoundaryIdentifier identifier: AnyHashable?) {
        behavior.noteUnimplemented(self, "collisionBehavior(_:endedContactFor:withBoundaryIdentifier:)",
                                   eitherSpelling: true, contacts: "boundary contacts ending")
    }
}

extension DynamicBehavior {
    /// Reports, once per delegate type and method, that a delegate left an optional method out
    /// (`eitherSpelling`: neither its UIKit nor its Swift spelling).
    func noteUnimplemented(_ delegate: AnyObject, _ method: String, eitherSpelling: Bool = false, contacts: String) {
        dynamicAnimator?.noteUnimplemented(delegate, method, eitherSpelling: eitherSpelling, events: contacts)
    }
}

/// Boundary identifiers in both of UIKit's and Swift's spellings.
///
/// A boundary is found by an `AnyHashable` key. UIKit code names boundaries with `NSCopying`
/// objects (`"barrier" as NSCopying` is an `NSString`); their key is the equal Swift value where
/// one exists (an `NSString` becomes a `String`, an `NSNumber` compares equal to the number), so
/// `boundary(withIdentifier: "barrier")` finds a boundary added as `"barrier" as NSCopying`.
enum BoundaryIdentifier {
    /// The hashable key of an `NSCopying` identifier.
    static func key(_ identifier: any NSCopying) -> AnyHashable {
        if let box = identifier as? Box { return box.key }
        if let hashable = identifier as? AnyHashable { return normalized(hashable) }
        // Not hashable: identity is all UIKit could compare either.
        return AnyHashable(ObjectIdentifier(identifier as AnyObject))
    }

    /// `key` with Foundation's bridged objects replaced by the Swift values they stand for (an
    /// `NSString` by its `String`, an `NSNumber` by its `Int`, or else its `Double`), so that
    /// either spelling finds the same boundary. Apple platforms compare them so anyway; Linux's
    /// Foundation does not.
    static func normalized(_ key: AnyHashable) -> AnyHashable {
        switch key.base {
        case let string as NSString: return AnyHashable(string as String)
        case let number as NSNumber:
            if let int = (number as Any) as? Int { return AnyHashable(int) }
            return AnyHashable(number.doubleValue)
        default: return key
        }
    }

    /// The `NSCopying` form of a key, for UIKit's delegate methods: strings as `NSString`,
    /// numbers as `NSNumber`, `NSCopying` values as themselves, anything else in a box whose
    /// description is the key's.
    static func object(_ key: AnyHashable) -> any NSCopying {
        switch key.base {
        case let string as String: return NSString(string: string)
        case let int as Int: return NSNumber(value: int)
        case let double as Double: return NSNumber(value: double)
        case let float as CGFloat: return NSNumber(value: Double(float))
        case let bool as Bool: return NSNumber(value: bool)
        case let copying as any NSCopying: return copying
        default: return Box(key)
        }
    }

    /// An `AnyHashable` identifier that has no `NSCopying` form of its own.
    final class Box: NSObject, NSCopying {
        let key: AnyHashable
        init(_ key: AnyHashable) { self.key = key }
        func copy(with zone: NSZone? = nil) -> Any { self }
        override var description: String { "\(key)" }
        override var hash: Int { key.hashValue }
        override func isEqual(_ object: Any?) -> Bool { (object as? Box)?.key == key }
    }
}
