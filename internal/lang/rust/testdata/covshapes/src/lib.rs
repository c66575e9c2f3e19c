//! Shapes of code whose coverage regions testdex's reader must count as
//! llvm-cov does: branches, a match, a loop that returns early, a
//! closure, a generic function with two instantiations, a macro, an
//! unused function, a one-line body. See record.sh.

pub fn classify(x: i32) -> &'static str {
    if x < 0 {
        "negative"
    } else if x == 0 {
        "zero"
    } else {
        "positive"
    }
}

pub fn kind(c: char) -> u8 {
    match c {
        'a'..='z' => 1,
        'A'..='Z' => {
            let k = 2;
            k
        }
        _ => 0,
    }
}

pub fn first_even(v: &[i32]) -> Option<i32> {
    for &x in v {
        if x % 2 == 0 {
            return Some(x);
        }
    }
    None
}

pub fn doubled(v: &[i32]) -> Vec<i32> {
    v.iter().map(|x| {
        x * 2
    }).collect()
}

pub fn largest<T: PartialOrd + Copy>(v: &[T]) -> T {
    let mut m = v[0];
    for &x in v {
        if x > m {
            m = x;
        }
    }
    m
}

macro_rules! square {
    ($x:expr) => {{
        let y = $x;
        y * y
    }};
}

pub fn squares(a: i32, b: i32) -> i32 {
    square!(a) + square!(b)
}

pub fn unused(x: i32) -> i32 {
    x + 42
}

pub fn one_line(x: i32) -> i32 { x - 1 }

pub fn lazy_and(a: bool, b: bool) -> bool {
    a && b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_branches() {
        assert_eq!(classify(-1), "negative");
        assert_eq!(classify(5), "positive");
        assert_eq!(kind('Q'), 2);
        assert!(!lazy_and(false, true));
    }

    #[test]
    fn test_loops() {
        assert_eq!(first_even(&[1, 3, 4]), Some(4));
        assert_eq!(doubled(&[1, 2]), vec![2, 4]);
        assert_eq!(one_line(3), 2);
    }

    #[test]
    fn test_generic_macro() {
        assert_eq!(largest(&[1, 5, 2]), 5);
        assert_eq!(largest(&[0.5, 0.25]), 0.5);
        assert_eq!(squares(2, 3), 13);
        assert_eq!(first_even(&[1]), None);
    }
}
