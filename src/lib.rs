// binding: written next
