// Names the documentation's code blocks use without declaring them, as the prose around each
// block describes them. A block that declares one of these names shadows it.
import Dynamics

/// The animator of the surrounding prose: a 320 × 480 pt screen.
@MainActor public let animator = DynamicAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 320, height: 480))
/// A 40 pt ball, a 60 × 90 pt card, a pendulum bob and three boxes.
@MainActor public let ball = BasicDynamicItem(center: CGPoint(x: 160, y: 100), size: CGSize(width: 40, height: 40),
                                               collisionBoundsType: .ellipse, name: "ball")
@MainActor public let card = BasicDynamicItem(center: CGPoint(x: 160, y: 240), size: CGSize(width: 60, height: 90), name: "card")
@MainActor public let bob = BasicDynamicItem(center: CGPoint(x: 260, y: 150), size: CGSize(width: 30, height: 30),
                                              collisionBoundsType: .ellipse, name: "bob")
@MainActor public let a = BasicDynamicItem(center: CGPoint(x: 80, y: 60), size: CGSize(width: 40, height: 40), name: "a")
@MainActor public let b = BasicDynamicItem(center: CGPoint(x: 160, y: 60), size: CGSize(width: 40, height: 40), name: "b")
@MainActor public let c = BasicDynamicItem(center: CGPoint(x: 240, y: 60), size: CGSize(width: 40, height: 40), name: "c")
/// An 80 × 24 character renderer.
@MainActor public let renderer = ASCIIRenderer(width: 80, height: 24)
