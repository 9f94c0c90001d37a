-- Rampart scan range: a planted database dump left in a listed folder (fake data).
-- MariaDB dump 10.19  Distrib 10.11.x-MariaDB, for debian-linux-gnu (x86_64)
CREATE TABLE `customers` (`id` int NOT NULL, `email` varchar(255) NOT NULL, `password_hash` varchar(255) NOT NULL, PRIMARY KEY (`id`));
INSERT INTO `customers` VALUES (1,'alice@example.test','$2y$10$rampartrangefakehashrampartrangefakehashrampartrang'),(2,'bob@example.test','$2y$10$rampartrangefakehashrampartrangefakehashrampartrangb');
