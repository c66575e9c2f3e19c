#[cfg(test)]
mod tests {
    #[test]
    fn in_b() {}
}
