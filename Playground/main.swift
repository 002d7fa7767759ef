print("playground: coming")
